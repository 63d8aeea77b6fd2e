/**
 * The {@code jroce} command line: {@link io.jroce.tools.Main} finds a {@link io.jroce.tools.Command}
 * by name and runs it; each command lives in its own package.
 */
package io.jroce.tools;
