package io.jroce.tools;

import java.io.PrintStream;
import java.util.List;

/** One {@code jroce} subcommand. Implementations keep no state between runs. */
public interface Command {
    /** The word that selects it: {@code jroce NAME ...}. */
    String name();

    /** One line for {@code jroce help}. */
    String summary();

    /** The full help: a usage line, what it does and its options. */
    String usage();

    /**
     * Runs the command.
     *
     * @return the process exit status, one of {@link ExitStatus}
     * @throws UsageException the arguments are wrong; the caller prints the message and the usage
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException;
}
