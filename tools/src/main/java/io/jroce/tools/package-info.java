/**
 * The {@code jroce} command line: {@link io.jroce.tools.Main} finds a {@link io.jroce.tools.Command}
 * by name and runs it; each command lives in its own package.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools;
