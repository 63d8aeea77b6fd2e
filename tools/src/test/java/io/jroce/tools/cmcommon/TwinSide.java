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

/** One jroce command line running in this JVM on a thread of its own, its stdout and stderr kept apart. */
public final class TwinSide implements AutoCloseable {
    /** Guards against hangs only: a run ends as soon as it is done. */
    public static final long GUARD_S = 120;
    public static final String SERVER = "127.0.0.1";
    public static final String CLIENT = "127.0.0.2";
    /** A second address of a server's device, where nobody listens, for {@link #awaitListening}. */
    public static final String PROBE = "127.0.0.3";

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

    /**
     * Waits until a server whose device has {@link #PROBE} as a second address listens on
     * {@code port} of {@code portSpace} (tcp or ib) on its first, without taking one of its
     * connections (which a client run again while refused could, when the listener comes up between
     * a ucmatose client's REQs): after its {@code startLine} (printed before the device opens: a REQ
     * sent before that is lost, and sent again 6 s later), ucmatose probes with a REQ to the
     * device's other address, refused with REJ 8 while nobody listens on the port and with REJ 28
     * once a listener bound to the first address has it (the REQ asks for an address the listener is
     * not bound to, as the kernel's cma_match_private_data refuses it).
     */
    public static void awaitListening(TwinSide server, String startLine, String udp, String port, String portSpace)
        throws Exception {
        server.awaitOutLine(startLine);
        for (int attempt = 0; attempt < 200; attempt++) {
            try (TwinSide probe = start("ucmatose", "-s", PROBE, "-b", CLIENT, "-S", "0", "-p", port, "-P", portSpace,
                "--udp-port", udp)) {
                probe.await();
                if (probe.out().contains("RDMA_CM_EVENT_REJECTED, error: 28")) {
                    return;
                }
                if (!probe.out().contains("RDMA_CM_EVENT_REJECTED, error: 8")) {
                    throw new AssertionError("the probe was not refused: " + probe.transcript());
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the server never listened: " + server.transcript());
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
