package io.jroce.tools.cmcommon;

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
import java.util.function.Predicate;

/** One jroce command line running in this JVM on a thread of its own, its stdout and stderr kept apart. */
public final class TwinSide implements AutoCloseable {
    /** Guards against hangs only: a run ends as soon as it is done. */
    public static final long GUARD_S = 120;

    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Future<Integer> status;
    private final String[] line;

    private TwinSide(String... line) {
        this.line = line;
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        status = pool.submit(() -> Main.run(line, o, e));
    }

    /** Starts {@code jroce line...}. */
    public static TwinSide start(String... line) {
        return new TwinSide(line);
    }

    /**
     * Starts {@code jroce line...} and runs it again while {@code refused} says its server did not
     * listen yet (a single-connection client refused with REJ 8): 50 ms apart, within the start-up
     * guard ({@link StartupGuard}), not a pace.
     */
    public static TwinSide startAgainWhile(Predicate<TwinSide> refused, String... line) throws Exception {
        TwinSide side = null;
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            side = start(line);
            side.await();
            if (!refused.test(side)) {
                return side;
            }
            side.close();
            Thread.sleep(50);
        }
        return side;
    }

    /** Waits until the run has printed {@code line} on stdout: 10 ms apart, within the guard. */
    public void awaitOutLine(String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (!outLines().contains(line)) {
            if (System.nanoTime() - deadline > 0 || status.isDone()) {
                throw new IllegalStateException("no line '" + line + "' from " + transcript());
            }
            Thread.sleep(10);
        }
    }

    /** Waits for the exit status. */
    public int await() throws Exception {
        return status.get(GUARD_S, TimeUnit.SECONDS);
    }

    public boolean isDone() {
        return status.isDone();
    }

    /** Interrupts a run that does not end by itself (a persistent server). */
    public void cancel() {
        status.cancel(true);
    }

    public String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    public List<String> outLines() {
        return out().lines().toList();
    }

    public List<String> errLines() {
        return err().lines().toList();
    }

    public String transcript() {
        String s;
        try {
            s = status.isDone() && !status.isCancelled() ? Integer.toString(status.get()) : "(running)";
        } catch (Exception e) {
            s = e.toString();
        }
        return "jroce " + String.join(" ", line) + ": exit status " + s + "\n--- stdout\n" + out() + "--- stderr\n"
            + err();
    }

    /** Stops the run if it still goes, and waits until its thread has torn everything down. */
    @Override
    public void close() throws InterruptedException {
        pool.shutdownNow();
        if (!pool.awaitTermination(GUARD_S, TimeUnit.SECONDS)) {
            throw new IllegalStateException("jroce " + String.join(" ", line) + " did not stop");
        }
    }
}
