package io.jroce.tools;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Entry point of the {@code jroce} launcher: {@code jroce COMMAND [OPTIONS]}. */
public final class Main {
    /** slf4j-simple's level property: the command line shows warnings only, unless told otherwise. */
    private static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
    /**
     * Netty's leak detector samples one buffer in 128 with a stack trace: a debugging aid that
     * costs the data path. The command line turns it off unless told otherwise.
     */
    private static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    /** The benchmark harness's commands, which live in the benchmarks module; the launcher runs them there. */
    private static final String BENCH = "bench";
    private static final List<String> BASELINES = List.of("udp_bw", "udp_lat");

    private Main() {
    }

    /**
     * Runs one command line and exits with its status.
     *
     * @param args the command and its arguments
     */
    public static void main(String[] args) {
        System.exit(launch(args, Commands.all()));
    }

    /**
     * Runs one command line of a process, as {@link #main} does with {@code commands}, and returns
     * its exit status: for a main that knows more commands (the benchmark harness's).
     *
     * @param args the command and its arguments
     * @param commands the commands to choose from
     * @return the exit status
     */
    public static int launch(String[] args, List<Command> commands) {
        if (System.getProperty(LOG_LEVEL) == null) {
            System.setProperty(LOG_LEVEL, "warn");
        }
        if (System.getProperty(LEAK_DETECTION) == null) {
            System.setProperty(LEAK_DETECTION, "disabled"); // before Netty's first buffer
        }
        int status;
        try {
            status = run(args, commands, System.out, System.err);
        } catch (InterruptedException e) {
            System.err.println("jroce: interrupted");
            status = ExitStatus.FAILED;
        } catch (RuntimeException e) {
            System.out.flush();
            System.err.println("jroce: internal error:");
            e.printStackTrace();
            status = ExitStatus.FAILED;
        }
        System.out.flush();
        return status;
    }

    /**
     * Runs one command line and returns its exit status; prints only to {@code out} and {@code err}.
     *
     * @param args the command and its arguments
     * @param out standard output
     * @param err standard error
     * @return the exit status
     * @throws InterruptedException the command was interrupted
     */
    public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        return run(args, Commands.all(), out, err);
    }

    /**
     * {@link #run(String[], PrintStream, PrintStream)} with {@code commands} to choose from.
     *
     * @param args the command and its arguments
     * @param commands the commands to choose from
     * @param out standard output
     * @param err standard error
     * @return the exit status
     * @throws InterruptedException the command was interrupted
     */
    public static int run(String[] args, List<Command> commands, PrintStream out, PrintStream err)
        throws InterruptedException {
        if (args.length == 0) {
            err.print(usage(commands));
            return ExitStatus.USAGE;
        }
        String name = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (name.equals("--version") || name.equals("version")) {
            out.println(Version.line());
            return ExitStatus.OK;
        }
        if (isHelp(name)) {
            return help(rest, commands, out, err);
        }
        Optional<Command> command = find(commands, name);
        if (command.isEmpty()) {
            err.println("jroce: unknown command '" + name + "'");
            err.print(usage(commands));
            return ExitStatus.USAGE;
        }
        Command c = command.get();
        if (rest.contains("-h") || rest.contains("--help")) {
            out.print(c.usage());
            return ExitStatus.OK;
        }
        try {
            return c.run(rest, out, err);
        } catch (UsageException e) {
            err.println("jroce " + c.name() + ": " + e.getMessage());
            err.println(c.usage().lines().findFirst().orElse(""));
            err.println("'jroce help " + c.name() + "' describes every option.");
            return ExitStatus.USAGE;
        }
    }

    private static int help(List<String> rest, List<Command> commands, PrintStream out, PrintStream err) {
        if (rest.isEmpty()) {
            out.print(usage(commands));
            return ExitStatus.OK;
        }
        Optional<Command> command = find(commands, rest.get(0));
        if (command.isEmpty()) {
            err.println("jroce help: unknown command '" + rest.get(0) + "'");
            err.print(usage(commands));
            return ExitStatus.USAGE;
        }
        out.print(command.get().usage());
        return ExitStatus.OK;
    }

    private static boolean isHelp(String arg) {
        return arg.equals("help") || arg.equals("-h") || arg.equals("--help");
    }

    private static Optional<Command> find(List<Command> commands, String name) {
        return commands.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /**
     * The text of {@code jroce help}.
     *
     * @return the text
     */
    public static String usage() {
        return usage(Commands.all());
    }

    private static String usage(List<Command> commands) {
        StringBuilder sb = new StringBuilder();
        sb.append("usage: jroce <command> [options]\n\n");
        sb.append("jroce is a software RDMA NIC in pure Java that speaks RoCEv2 (UDP port 4791).\n\n");
        sb.append("commands:\n");
        for (Command c : commands) {
            sb.append(String.format("  %-12s %s%n", c.name(), c.summary()));
        }
        if (find(commands, BENCH).isEmpty()) {
            sb.append(String.format("  %-12s %s%n", BENCH, "benchmark harness: perftest twins against their raw-UDP baselines "
                + String.join(", ", BASELINES)));
            sb.append(String.format("  %-12s %s%n", "", "(module benchmarks, which ./jroce builds and runs; docs/benchmarks.md)"));
        }
        sb.append(String.format("  %-12s %s%n", "help", "this message; 'jroce help <command>' shows a command's options"));
        sb.append(String.format("  %-12s %s%n", "--version", "jroce's version and the Java runtime's"));
        return sb.toString();
    }
}
