/**
 * Small programs that show the verbs API; {@link io.jroce.tools.examples.ReadmeExample} is the one
 * README.md shows, {@link io.jroce.tools.examples.CmEndpointExample} (librdmacm's convenience layer) the
 * one docs/cm-guide.md shows, each kept identical to its quote by a test.
 */
package io.jroce.tools.examples;
