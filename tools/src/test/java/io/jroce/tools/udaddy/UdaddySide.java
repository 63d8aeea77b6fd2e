package io.jroce.tools.udaddy;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** One {@code jroce udaddy} command line running in this JVM on a thread of its own, its output kept apart. */
final class UdaddySide implements AutoCloseable {
    /** Guards against hangs only: a run ends as soon as it is done. */
    static final long GUARD_S = 120;

    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Future<Integer> status;
    private final String[] args;

    private UdaddySide(String... args) {
        this.args = args;
        String[] line = new String[args.length + 1];
        line[0] = "udaddy";
        System.arraycopy(args, 0, line, 1, args.length);
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        status = pool.submit(() -> Main.run(line, o, e));
    }

    static UdaddySide start(String... args) {
        return new UdaddySide(args);
    }

    /**
     * A client run again while its server does not listen yet (the server's device answers the
     * SIDR_REQ with status 1, UNREACHABLE): 50 ms apart within the start-up guard
     * ({@link StartupGuard}), not a pace.
     */
    static UdaddySide clientWhileUnreachable(String... args) throws Exception {
        UdaddySide c = null;
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            c = start(args);
            if (c.await() == 0 || !c.out().contains("RDMA_CM_EVENT_UNREACHABLE, error: 1")) {
                return c;
            }
            c.close();
            Thread.sleep(50);
        }
        return c;
    }

    /** Waits for the exit status. */
    int await() throws Exception {
        return status.get(GUARD_S, TimeUnit.SECONDS);
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    List<String> outLines() {
        return out().lines().toList();
    }

    String transcript() {
        String s;
        try {
            s = status.isDone() && !status.isCancelled() ? Integer.toString(status.get()) : "(running)";
        } catch (Exception e) {
            s = e.toString();
        }
        return "jroce udaddy " + String.join(" ", args) + ": exit status " + s + "\n--- stdout\n" + out()
            + "--- stderr\n" + err();
    }

    /** Stops the run if it still goes, and waits until its thread has torn everything down. */
    @Override
    public void close() throws InterruptedException {
        pool.shutdownNow();
        if (!pool.awaitTermination(GUARD_S, TimeUnit.SECONDS)) {
            throw new IllegalStateException("jroce udaddy " + String.join(" ", args) + " did not stop");
        }
    }
}
