package io.jroce.tools.perftest;

import io.jroce.tools.UnknownDeviceException;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import java.io.PrintStream;

/**
 * A command line the twin's parser refused, reported as perftest 4.5-0.17 reports it: the
 * complaint, then what each tool's main() prints when parser() fails (" Parser function exited with
 * Error", src/write_bw.c and the seven others). An unknown flag gets the lines of parser()'s default
 * case and the usage text first (src/perftest_parameters.c), after jroce's line naming the flag
 * (getopt's own line in the original). A {@code -d} that names no device is reported as
 * ctx_find_dev and main() report it.
 */
final class ParserError {
    /** What every perftest tool's main() prints on stderr when parser() fails. */
    static final String AFTER = " Parser function exited with Error";
    /** What main() prints when ctx_find_dev finds no device of the name -d gave. */
    static final String NO_DEVICE = " Unable to find the Infiniband/RoCE device";
    /** parser()'s default case: the flag is not one of the tool's. */
    static final String INVALID_FLAG = " Invalid Command or flag.\n Please check command line and run again.\n\n";

    private ParserError() {
    }

    /**
     * Prints the refusal.
     *
     * @param tool the twin
     * @param e    what the parser refused; a message that starts with a space is perftest's own text
     */
    static void print(PerftestTool tool, UsageException e, PrintStream out, PrintStream err) {
        if (e instanceof UnknownDeviceException u) {
            // ctx_find_dev's line (src/perftest_resources.c), the devices that exist, then main()'s line
            err.println("IB device " + u.deviceName() + " not found");
            err.println(u.knownDevices());
            err.println(NO_DEVICE);
            return;
        }
        String message = e.getMessage();
        if (message.startsWith(" ")) {
            err.println(message);
        } else {
            err.println("jroce " + tool.command() + ": " + message);
        }
        if (message.startsWith(Getopt.unknown("").getMessage().replace("''", ""))) {
            err.print(INVALID_FLAG);
            err.flush();
            out.print(PerftestUsage.text(tool));
            out.flush();
        }
        err.println(AFTER);
    }
}
