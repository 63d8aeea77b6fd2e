package io.jroce.tools.cmcommon;

import java.io.PrintStream;
import java.util.List;

import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;

/**
 * getopt as the librdmacm examples that read options only (udaddy, mckey, cmtime) run it: the
 * operands are ignored, and an option error is glibc's complaint on stderr and the usage on stdout.
 */
public final class TwinGetopt {
    private TwinGetopt() {
    }

    /**
     * Parses {@code args} with {@code table}; false after an option error, which {@code program}'s
     * complaint and {@code usage} reported. A {@link JroceOptionException} (an option jroce refuses)
     * passes.
     *
     * @param program the program's name
     * @param usage the usage text
     * @param table the options
     * @param args the command line
     * @param out where the usage goes
     * @param err where the complaint goes
     * @return true when the options were taken
     * @throws UsageException a jroce option was refused
     */
    public static boolean parse(String program, String usage, List<OptionSpec> table, List<String> args,
                                PrintStream out, PrintStream err) throws UsageException {
        try {
            new Getopt(table, (o, operand) -> { }).parse(args);
            return true;
        } catch (JroceOptionException e) {
            throw e;
        } catch (UsageException e) {
            err.println(complaint(program, e.getMessage()));
            out.print(usage);
            return false;
        }
    }

    /**
     * glibc's line for the error jroce's Getopt reported as {@code message}, after {@code program}'s name.
     *
     * @param program the program's name
     * @param message Getopt's message
     * @return glibc's line
     */
    public static String complaint(String program, String message) {
        String unknownShort = "unknown option '-";
        if (message.startsWith(unknownShort) && message.length() == unknownShort.length() + 2) {
            return program + ": invalid option -- '" + message.charAt(unknownShort.length()) + "'";
        }
        if (message.startsWith("unknown option '--")) {
            return program + ": unrecognized option '" + message.substring("unknown option '".length());
        }
        if (message.startsWith("-") && message.endsWith(" needs a value")) {
            return program + ": option requires an argument -- '" + message.charAt(1) + "'";
        }
        return program + ": " + message;
    }
}
