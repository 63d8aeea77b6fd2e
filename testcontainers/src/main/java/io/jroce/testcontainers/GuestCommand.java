package io.jroce.testcontainers;

import java.time.Duration;

/** One command running in a kept rxe guest ({@link RxeContainer#launch}). */
public final class GuestCommand {
    private final int id;
    private final String command;
    private final GuestConsole console;

    GuestCommand(int id, String command, GuestConsole console) {
        this.id = id;
        this.command = command;
        this.console = console;
    }

    /** {@return the number that names its markers on the console ({@code RXE-PEER-START id}, {@code RXE-PEER-DONE id status})} */
    public int id() {
        return id;
    }

    /** {@return the command as the guest runs it} */
    public String command() {
        return command;
    }

    /** {@return whether the guest reported the command's exit status} */
    public boolean isDone() {
        return console.commandDone(id);
    }

    /**
     * Waits until it has ended: its exit status and output (the console's lines between its start
     * and done markers: lines other commands printed meanwhile are among them).
     *
     * @param timeout the longest wait
     * @return how the command ended
     * @throws IllegalStateException if the guest fails or ends first, or the wait runs out
     */
    public GuestResult awaitExit(Duration timeout) {
        console.await(c -> c.commandDone(id), timeout, "the end of command " + id + " (" + command + ")");
        return console.result(id);
    }

    /**
     * Waits for a line of its output containing {@code fragment} (e.g. a server's "listening") and returns it.
     *
     * @param fragment what the line contains
     * @param timeout the longest wait
     * @return the first such line
     */
    public String awaitOutput(String fragment, Duration timeout) {
        String[] found = new String[1];
        console.await(c -> {
            int start = c.commandStartLine(id);
            return start >= 0 && (found[0] = c.firstLineContaining(fragment, start)) != null;
        }, timeout, "a line containing \"" + fragment + "\" from command " + id);
        return found[0];
    }
}
