/**
 * The command-line parser of every twin and command: {@link io.jroce.tools.getopt.Getopt} reads a
 * command line as glibc's getopt_long does, driven by a table of
 * {@link io.jroce.tools.getopt.OptionSpec}s (long name, short letter, argument kind, handler, or
 * the reason an option is refused).
 */
package io.jroce.tools.getopt;
