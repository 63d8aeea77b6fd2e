package io.jroce.tools;

import java.io.PrintStream;
import java.util.List;

/** One {@code jroce} subcommand. Implementations keep no state between runs. */
public interface Command {
    /**
     * The word that selects it: {@code jroce NAME ...}.
     *
     * @return the command's name
     */
    String name();

    /**
     * One line for {@code jroce help}.
     *
     * @return the summary
     */
    String summary();

    /**
     * The full help: a usage line, what it does and its options.
     *
     * @return the help text, lines ending in newlines
     */
    String usage();

    /**
     * Runs the command.
     *
     * @return the process exit status, one of {@link ExitStatus}
     * @throws UsageException the arguments are wrong; the caller prints the message and the usage
     * @param args the arguments after the command's name
     * @param out where its output goes
     * @param err where its errors go
     * @throws InterruptedException the command was interrupted while it waited
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException;
}
