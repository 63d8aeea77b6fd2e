package io.jroce.tests.interop;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** One jroce command line run in this JVM on a thread of its own, its output kept. */
final class JroceCommand {
    private final Future<Integer> status;
    private final ByteArrayOutputStream out;
    private final String[] args;

    private JroceCommand(Future<Integer> status, ByteArrayOutputStream out, String[] args) {
        this.status = status;
        this.out = out;
        this.args = args;
    }

    static JroceCommand start(ExecutorService pool, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        Future<Integer> status = pool.submit(() -> Main.run(args, print, print));
        return new JroceCommand(status, out, args);
    }

    /**
     * Runs a client command line until it gets past "Couldn't connect to" (its server, in a guest
     * that is still booting, does not listen yet): 1 s apart within the {@link StartupGuard}, not a pace.
     */
    static Result runWhileRefused(ExecutorService pool, Duration guard, String... args) throws Exception {
        Result r = null;
        for (StartupGuard startup = StartupGuard.start(); startup.waiting(); ) {
            r = start(pool, args).await(guard);
            if (r.status() == 0 || !r.transcript().contains("Couldn't connect to")) {
                break;
            }
            Thread.sleep(1000);
        }
        return r;
    }

    /**
     * Starts a server command line again while it cannot open its device: the host's IPv6 address
     * on a new bridge is tentative (duplicate address detection) for a second or two and cannot be
     * bound. Each run is given a second to fail, within the {@link StartupGuard}: a guard, not a pace.
     */
    static JroceCommand startWhileAddressTentative(ExecutorService pool, String... args) throws Exception {
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            JroceCommand c = start(pool, args);
            Thread.sleep(1000);
            if (!c.outputSoFar().contains("cannot open device")) {
                return c;
            }
            c.await(Duration.ofSeconds(30));
        }
        throw new AssertionError("jroce " + String.join(" ", args) + ": the host never bound its address");
    }

    /** What the command printed so far (stdout and stderr together): to wait for a line of a run that goes on. */
    String outputSoFar() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Interrupts the command's thread: for a run that outlived its guard. */
    void cancel() {
        status.cancel(true);
    }

    Result await(Duration guard) throws Exception {
        int code = status.get(guard.toMillis(), TimeUnit.MILLISECONDS);
        String text = out.toString(StandardCharsets.UTF_8);
        return new Result(code, new ArrayList<>(text.lines().toList()),
            "jroce " + String.join(" ", args) + "\n" + text);
    }

    /** Exit status, the lines printed (stdout and stderr together), and both for assertion messages. */
    record Result(int status, List<String> lines, String transcript) {
    }
}
