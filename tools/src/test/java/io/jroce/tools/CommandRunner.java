package io.jroce.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs a jroce command line in-process and keeps what it printed. */
public final class CommandRunner {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final int status;

    private CommandRunner(String... args) throws InterruptedException {
        status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    public static CommandRunner run(String... args) throws InterruptedException {
        return new CommandRunner(args);
    }

    public int status() {
        return status;
    }

    public String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Everything printed, for assertion messages. */
    public String transcript() {
        return "exit status " + status + "\n--- stdout\n" + out() + "--- stderr\n" + err();
    }
}
