package io.jroce.tools.getopt;

import io.jroce.tools.UsageException;

/**
 * One row of a tool's option table: a struct option entry together with its letter in the
 * optstring, and what giving it does. A refused option is one the real tool has and jroce does not
 * honour: it is recognised (so that a prefix of another name does not pick it up by accident) and
 * fails with the reason, rather than being ignored.
 *
 * @param longName  the name after {@code --}, or null for a short option only
 * @param shortName the letter after {@code -}, or {@link #NO_SHORT}
 * @param argument  whether it takes an argument
 * @param handler   what giving it does; null for a refused option
 * @param refusal   why jroce does not take it, or null
 */
public record OptionSpec(String longName, char shortName, ArgumentKind argument, OptionHandler handler,
                         String refusal) {
    /** No short letter. */
    public static final char NO_SHORT = 0;

    /** Something a flag does. */
    @FunctionalInterface
    public interface FlagAction {
        /**
         * Does it.
         *
         * @throws UsageException the flag cannot be taken here
         */
        void run() throws UsageException;
    }

    /**
     * An option without an argument.
     *
     * @param shortName the short letter, or {@link #NO_SHORT}
     * @param longName the long name, without its dashes
     * @param action what it does
     * @return the option
     */
    public static OptionSpec flag(char shortName, String longName, FlagAction action) {
        return new OptionSpec(longName, shortName, ArgumentKind.NONE, (spelling, value) -> action.run(), null);
    }

    /**
     * An option with a required argument.
     *
     * @param shortName the short letter, or {@link #NO_SHORT}
     * @param longName the long name, without its dashes
     * @param handler what it does with its argument
     * @return the option
     */
    public static OptionSpec value(char shortName, String longName, OptionHandler handler) {
        return new OptionSpec(longName, shortName, ArgumentKind.REQUIRED, handler, null);
    }

    /**
     * An option with an optional argument (given only attached).
     *
     * @param shortName the short letter, or {@link #NO_SHORT}
     * @param longName the long name, without its dashes
     * @param handler what it does with its argument, or null without one
     * @return the option
     */
    public static OptionSpec optional(char shortName, String longName, OptionHandler handler) {
        return new OptionSpec(longName, shortName, ArgumentKind.OPTIONAL, handler, null);
    }

    /**
     * An option the real tool has that jroce refuses, with the reason.
     *
     * @param shortName the short letter, or {@link #NO_SHORT}
     * @param longName the long name, without its dashes
     * @param reason why jroce does not take it
     * @return the option
     */
    public static OptionSpec refused(char shortName, String longName, String reason) {
        return new OptionSpec(longName, shortName, ArgumentKind.NONE, null, reason);
    }

    /**
     * The same option under another long name (an old spelling kept as an alias).
     *
     * @param otherLongName the other long name
     * @return the option under that name
     */
    public OptionSpec alias(String otherLongName) {
        return new OptionSpec(otherLongName, NO_SHORT, argument, handler, refusal);
    }

    /** The error for giving a refused option as {@code spelling}. */
    UsageException refusedAs(String spelling) {
        return new UsageException("option " + spelling + " is not supported by jroce: " + refusal);
    }
}
