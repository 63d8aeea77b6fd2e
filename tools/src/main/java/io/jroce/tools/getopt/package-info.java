/**
 * The command-line parser of every twin and command: {@link io.jroce.tools.getopt.Getopt} reads a
 * command line as glibc's getopt_long does, driven by a table of
 * {@link io.jroce.tools.getopt.OptionSpec}s (long name, short letter, argument kind, handler, or
 * the reason an option is refused).
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.getopt;
