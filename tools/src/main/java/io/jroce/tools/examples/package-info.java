/**
 * Small programs that show the verbs API; {@link io.jroce.tools.examples.ReadmeExample} is the one
 * README.md shows, kept identical to it by a test.
 */
package io.jroce.tools.examples;
