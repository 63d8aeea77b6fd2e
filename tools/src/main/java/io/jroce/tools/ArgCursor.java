package io.jroce.tools;

import java.util.List;

/**
 * Walks a command's arguments: options are read one at a time with {@link #next()} and their
 * values with {@link #value}. Both {@code --opt value} and {@code --opt=value} are accepted.
 */
public final class ArgCursor {
    private final List<String> args;
    private int index;
    private String inlineValue;
    private String current;

    public ArgCursor(List<String> args) {
        this.args = List.copyOf(args);
    }

    public boolean hasNext() {
        return index < args.size();
    }

    /** The next option (for {@code --opt=value}, the {@code --opt} part). */
    public String next() throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(current + " takes no value");
        }
        String arg = args.get(index++);
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 2) {
            inlineValue = arg.substring(eq + 1);
            arg = arg.substring(0, eq);
        }
        current = arg;
        return arg;
    }

    /** The value of {@code option}, which {@link #next()} just returned. */
    public String value(String option) throws UsageException {
        if (inlineValue != null) {
            String v = inlineValue;
            inlineValue = null;
            return v;
        }
        if (index >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(index++);
    }

    /** The value of {@code option} as an integer in {@code min..max}. */
    public int intValue(String option, int min, int max) throws UsageException {
        String v = value(option);
        try {
            int n = Integer.decode(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a number from " + min + " to " + max + ", got '" + v + "'");
    }

    /** Fails when an option given as {@code --opt=value} did not take its value. */
    public void finish() throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(current + " takes no value");
        }
    }

    /** The error for an option the command does not know. */
    public static UsageException unknown(String option) {
        return new UsageException("unknown option '" + option + "'");
    }
}
