package io.jroce.tools.getopt;

import io.jroce.tools.UsageException;
import java.util.ArrayList;
import java.util.List;

/**
 * A command line read as glibc's getopt_long reads it, with GNU's argument permutation: short
 * options cluster ({@code -ce}, and a value may be attached, {@code -s1024}, or the next argument,
 * {@code -s 1024}); long options take {@code --size=1024} or {@code --size 1024} and may be
 * abbreviated to any unambiguous prefix ({@code --it} for {@code --iters}; an exact name always
 * wins); operands (the server's name) may stand anywhere; {@code --} ends the options and a lone
 * {@code -} is an operand. Options and operands are handed over in the order given, so the first
 * error stops the parse where getopt_long would.
 */
public final class Getopt {
    private final List<OptionSpec> table;
    private final OptionHandler operand;

    /**
     * A parser of one tool's command line.
     *
     * @param table   the tool's options
     * @param operand receives each operand, as its value
     */
    public Getopt(List<OptionSpec> table, OptionHandler operand) {
        this.table = List.copyOf(table);
        this.operand = operand;
    }

    /**
     * Parses {@code args}, calling each option's handler and the operand handler in order.
     *
     * @param args the command line after the command's name
     * @throws UsageException the command line is wrong; the message says how
     */
    public void parse(List<String> args) throws UsageException {
        boolean optionsEnded = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                operand.accept(null, arg);
            } else if (arg.equals("--")) {
                optionsEnded = true;
            } else if (arg.startsWith("--")) {
                i = longOption(args, i);
            } else {
                i = shortOptions(args, i);
            }
        }
    }

    /**
     * A twin's command line: options, and at most one operand, the server to connect to.
     *
     * @return the server, or null to be the server
     * @param table the tool's options
     * @param args the command line after the command's name
     * @throws UsageException the command line is wrong; the message says how
     */
    public static String parseWithServer(List<OptionSpec> table, List<String> args) throws UsageException {
        String[] host = {null};
        new Getopt(table, (o, operand) -> {
            if (host[0] != null) {
                throw new UsageException("one server host at most, got '" + host[0] + "' and '" + operand + "'");
            }
            host[0] = operand;
        }).parse(args);
        return host[0];
    }

    /** Handles the long option at {@code args[i]}; returns the index of the last argument it used. */
    private int longOption(List<String> args, int i) throws UsageException {
        String arg = args.get(i);
        int eq = arg.indexOf('=');
        String name = eq > 2 ? arg.substring(2, eq) : arg.substring(2);
        String inline = eq > 2 ? arg.substring(eq + 1) : null;
        OptionSpec spec = findLong(name);
        String spelling = "--" + spec.longName();
        if (spec.refusal() != null) {
            throw spec.refusedAs(spelling);
        }
        switch (spec.argument()) {
            case NONE -> {
                if (inline != null) {
                    throw new UsageException(spelling + " takes no value");
                }
                spec.handler().accept(spelling, null);
            }
            case REQUIRED -> {
                if (inline == null) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException(spelling + " needs a value");
                    }
                    inline = args.get(++i);
                }
                spec.handler().accept(spelling, inline);
            }
            case OPTIONAL -> spec.handler().accept(spelling, inline);
            default -> throw new IllegalStateException(spec.argument().toString());
        }
        return i;
    }

    /** Handles the cluster of short options at {@code args[i]}; returns the index of the last argument it used. */
    private int shortOptions(List<String> args, int i) throws UsageException {
        String arg = args.get(i);
        for (int j = 1; j < arg.length(); j++) {
            char c = arg.charAt(j);
            String spelling = "-" + c;
            OptionSpec spec = findShort(c, spelling);
            if (spec.refusal() != null) {
                throw spec.refusedAs(spelling);
            }
            String attached = j + 1 < arg.length() ? arg.substring(j + 1) : null;
            switch (spec.argument()) {
                case NONE -> spec.handler().accept(spelling, null);
                case REQUIRED -> {
                    if (attached == null) {
                        if (i + 1 >= args.size()) {
                            throw new UsageException(spelling + " needs a value");
                        }
                        attached = args.get(++i);
                    }
                    spec.handler().accept(spelling, attached);
                    return i;
                }
                case OPTIONAL -> {
                    spec.handler().accept(spelling, attached);
                    return i;
                }
                default -> throw new IllegalStateException(spec.argument().toString());
            }
        }
        return i;
    }

    private OptionSpec findShort(char c, String spelling) throws UsageException {
        for (OptionSpec spec : table) {
            if (spec.shortName() == c) {
                return spec;
            }
        }
        throw unknown(spelling);
    }

    /** The option named {@code name} exactly, else the one option it is a prefix of. */
    private OptionSpec findLong(String name) throws UsageException {
        List<OptionSpec> candidates = new ArrayList<>();
        for (OptionSpec spec : table) {
            if (spec.longName() == null) {
                continue;
            }
            if (spec.longName().equals(name)) {
                return spec;
            }
            if (!name.isEmpty() && spec.longName().startsWith(name)) {
                candidates.add(spec);
            }
        }
        if (candidates.isEmpty()) {
            throw unknown("--" + name);
        }
        boolean sameOption = candidates.stream().allMatch(c -> c.handler() == candidates.get(0).handler()
            && c.argument() == candidates.get(0).argument() && c.refusal() == candidates.get(0).refusal());
        if (!sameOption) {
            StringBuilder sb = new StringBuilder("option '--" + name + "' is ambiguous; possibilities:");
            candidates.forEach(c -> sb.append(" '--").append(c.longName()).append('\''));
            throw new UsageException(sb.toString());
        }
        return candidates.get(0);
    }

    /**
     * The error for an option the command does not know.
     *
     * @param option the option as given
     * @return the exception to throw
     */
    public static UsageException unknown(String option) {
        return new UsageException("unknown option '" + option + "'");
    }

    /**
     * An integer as strtol with base 0 reads it (decimal, 0x hexadecimal, 0 octal) in
     * {@code min..max}; else "{@code -p} needs a number from 1 to 65535, got '70000'".
     *
     * @param spelling the option, for the message
     * @param value its argument
     * @param min the smallest value taken
     * @param max the largest value taken
     * @return the number
     * @throws UsageException the command line is wrong; the message says how
     */
    public static int integer(String spelling, String value, int min, int max) throws UsageException {
        try {
            long n = Long.decode(value.trim());
            if (n >= min && n <= max) {
                return (int) n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(spelling + " needs a number from " + min + " to " + max + ", got '" + value + "'");
    }
}
