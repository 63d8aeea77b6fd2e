package io.jroce.tools;

import io.jroce.tools.getopt.Getopt;
import java.util.List;

/**
 * A command's arguments. The twins and the device commands hand them all ({@link #rest()}) to
 * {@link Getopt}; the benchmark commands walk them: options are read one at a time with
 * {@link #next()} and their values with {@link #value}, as {@code --opt value} or {@code --opt=value}.
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
        return Getopt.integer(option, value(option), min, max);
    }

    /** Every argument not read yet, as given; the cursor is then at the end. */
    public List<String> rest() {
        List<String> rest = args.subList(index, args.size());
        index = args.size();
        return rest;
    }

    /** Fails when an option given as {@code --opt=value} did not take its value. */
    public void finish() throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(current + " takes no value");
        }
    }

    /** The error for an option the command does not know. */
    public static UsageException unknown(String option) {
        return Getopt.unknown(option);
    }
}
