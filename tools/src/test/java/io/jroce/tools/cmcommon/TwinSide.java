package io.jroce.tools.cmcommon;

import io.jroce.tools.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
    public static final String SERVER = "127.0.0.1";
    public static final String CLIENT = "127.0.0.2";

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
     * A client run again while {@code refused} says its server's device answered REJ 8 (the server
     * does not listen yet): up to 100 times, 50 ms apart. A guard for the start-up, not a pace.
     */
    public static TwinSide clientWhileRefused(Predicate<TwinSide> refused, String... line) throws Exception {
        TwinSide c = null;
        for (int attempt = 0; attempt < 100; attempt++) {
            c = start(line);
            c.await();
            if (c.await() == 0 || !refused.test(c)) {
                return c;
            }
            c.close();
            Thread.sleep(50);
        }
        return c;
    }

    /** A UDP port free on both loopback addresses, for the two devices' RoCE port. */
    public static int freeUdpPort() {
        while (true) {
            try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(SERVER), 0))) {
                int p = a.getLocalPort();
                try (DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(CLIENT), p))) {
                    return p;
                } catch (IOException taken) {
                    // try another
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
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
