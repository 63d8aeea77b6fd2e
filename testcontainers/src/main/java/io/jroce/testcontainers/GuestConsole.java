package io.jroce.testcontainers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.output.OutputFrame;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The serial console of one rxe guest as its container prints it, parsed for the markers of
 * interop/rxe-image/entrypoint.sh; waiters block on it until a condition holds, the guest can no
 * longer make it hold, or their time runs out. One per container; fed by Testcontainers' log
 * consumer thread.
 */
final class GuestConsole {
    static final String READY_MARKER = "RXE-PEER-READY";
    static final String EXIT_MARKER = "RXE-PEER-EXIT ";
    static final String ERROR_MARKER = "RXE-PEER-ERROR ";
    static final String GID_MARKER = "RXE-PEER-GID ";
    static final String START_MARKER = "RXE-PEER-START ";
    static final String DONE_MARKER = "RXE-PEER-DONE ";

    private static final Logger LOG = LoggerFactory.getLogger(GuestConsole.class);

    private final String name;
    private final Supplier<String> whatRuns;
    private final Supplier<String> containerStatus;
    private final List<String> lines = new ArrayList<>();
    private final List<String> gids = new ArrayList<>();
    private final StringBuilder partial = new StringBuilder();
    private final Map<Integer, int[]> commands = new HashMap<>(); // id -> {start line, done line, status}
    private boolean ready;
    private int readyLine = -1;
    private Integer exitStatus;
    private int exitLine;
    private String error;
    private boolean ended;

    /**
     * @param whatRuns        the guest's command, for failure messages
     * @param containerStatus the container's exit code, asked only when the console ended unexplained
     */
    GuestConsole(String name, Supplier<String> whatRuns, Supplier<String> containerStatus) {
        this.name = name;
        this.whatRuns = whatRuns;
        this.containerStatus = containerStatus;
    }

    void accept(OutputFrame frame) {
        synchronized (this) {
            if (frame.getType() == OutputFrame.OutputType.END) {
                if (partial.length() > 0) {
                    line(partial.toString());
                    partial.setLength(0);
                }
                ended = true;
            } else {
                partial.append(frame.getUtf8String());
                int nl;
                while ((nl = partial.indexOf("\n")) >= 0) {
                    line(partial.substring(0, nl).replace("\r", ""));
                    partial.delete(0, nl + 1);
                }
            }
            notifyAll();
        }
    }

    private void line(String line) {
        LOG.info("[{}] {}", name, line);
        lines.add(line);
        int index = lines.size() - 1;
        if (line.equals(READY_MARKER)) {
            ready = true;
            readyLine = index;
        } else if (line.startsWith(GID_MARKER)) {
            String[] f = line.substring(GID_MARKER.length()).trim().split(" ");
            if (f.length == 2) {
                gids.add(f[1]);
            }
        } else if (line.startsWith(ERROR_MARKER)) {
            error = line.substring(ERROR_MARKER.length());
        } else if (line.startsWith(EXIT_MARKER) && exitStatus == null) {
            Integer status = number(line.substring(EXIT_MARKER.length()).trim());
            if (status != null) { // else a command printed something that looks like the marker
                exitStatus = status;
                exitLine = index;
            }
        } else if (line.startsWith(START_MARKER)) {
            Integer id = number(line.substring(START_MARKER.length()).trim());
            if (id != null) {
                commands.putIfAbsent(id, new int[] {index, -1, 0});
            }
        } else if (line.startsWith(DONE_MARKER)) {
            String[] f = line.substring(DONE_MARKER.length()).trim().split(" ");
            Integer id = f.length == 2 ? number(f[0]) : null;
            Integer status = f.length == 2 ? number(f[1]) : null;
            if (id != null && status != null) {
                int[] c = commands.computeIfAbsent(id, k -> new int[] {index, -1, 0});
                c[1] = index;
                c[2] = status;
            }
        }
    }

    private static Integer number(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    synchronized List<String> gids() {
        return List.copyOf(gids);
    }

    synchronized boolean ready() {
        return ready;
    }

    synchronized boolean exited() {
        return exitStatus != null;
    }

    synchronized boolean commandDone(int id) {
        int[] c = commands.get(id);
        return c != null && c[1] >= 0;
    }

    /** The first line containing {@code fragment} after line {@code from} (exclusive), or null. */
    synchronized String firstLineContaining(String fragment, int from) {
        for (int i = Math.max(0, from + 1); i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return lines.get(i);
            }
        }
        return null;
    }

    /** Where command {@code id}'s output begins (its start marker's line), or -1 before it started. */
    synchronized int commandStartLine(int id) {
        int[] c = commands.get(id);
        return c == null ? -1 : c[0];
    }

    /** A one-command guest's result: the lines between the ready and the exit markers. */
    synchronized GuestResult result() {
        List<String> output = readyLine < 0 ? List.of() : List.copyOf(lines.subList(readyLine + 1, exitLine));
        return new GuestResult(exitStatus, output, String.join("\n", lines));
    }

    /**
     * A kept guest's command result: the lines between its start and done markers, without the
     * other commands' markers (their output, printed meanwhile, is among them).
     */
    synchronized GuestResult result(int id) {
        int[] c = commands.get(id);
        List<String> output = new ArrayList<>();
        for (String l : lines.subList(c[0] + 1, c[1])) {
            if (!l.startsWith(START_MARKER) && !l.startsWith(DONE_MARKER)) {
                output.add(l);
            }
        }
        return new GuestResult(c[2], List.copyOf(output), String.join("\n", lines));
    }

    /** Blocks until the condition holds; fails fast when the guest can no longer make it hold. */
    synchronized void await(Predicate<GuestConsole> condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.test(this)) {
                return;
            }
            if (error != null) {
                throw new IllegalStateException(name + ": the rxe guest failed: " + error + dump());
            }
            if (ended || exitStatus != null) {
                throw new IllegalStateException(name + ": the guest "
                    + (exitStatus != null ? "ended (status " + exitStatus + ")"
                        : "stopped (container status " + containerStatus.get() + ")") + " before " + what + dump());
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException(name + ": no " + what + " within " + timeout + dump());
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(name + ": interrupted waiting for " + what, e);
            }
        }
    }

    private String dump() {
        return "\n--- console of " + name + " (" + whatRuns.get() + ") ---\n" + String.join("\n", lines);
    }
}
