/**
 * Small programs that show the verbs API; {@link io.jroce.tools.examples.ReadmeExample} is the one
 * README.md shows, {@link io.jroce.tools.examples.CmEndpointExample} (librdmacm's convenience layer) the
 * one docs/cm-guide.md shows, each kept identical to its quote by a test.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.examples;
