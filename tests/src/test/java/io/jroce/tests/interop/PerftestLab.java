package io.jroce.tests.interop;

import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.tests.interop.PerftestRxeTest.Step;
import io.jroce.testsupport.StartupGuard;

/**
 * The harness of the perftest interop tests ({@link PerftestRxeTest}, {@link PerftestCmRxeTest}): a
 * network of its own (the host address where jroce binds UDP 4791 is not shared with another test
 * run), one guest running every step in one role, and a pool for jroce's commands; jroce runs each
 * step's other side against the guest. Closed when the step stream is: after the last step ran.
 */
final class PerftestLab implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PerftestLab.class);
    static final Duration BOOT = Duration.ofMinutes(3);
    /** A guard per step, not a pace: each step takes seconds. */
    static final Duration STEP = Duration.ofMinutes(3);
    /** The guest kills a tool after this long (a guard: a hung step then does not hang the rest). */
    static final int GUEST_TOOL_TIMEOUT_S = 100;

    final RxeNetwork network;
    final RxePeer guest;
    final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "jroce-perftest");
        t.setDaemon(true);
        return t;
    });
    private final String prefix;
    private final List<Step> steps;

    /** The guest's output of one step and its exit status. */
    record GuestRun(int status, List<String> lines) {
    }

    /** One step's outcome on both sides, and its capture (or null). */
    record Outcome(JroceCommand.Result jroce, GuestRun guest, RoceCapture capture) {
        PerftestOutput jroceOutput() {
            return PerftestOutput.parse(jroce.lines());
        }

        PerftestOutput guestOutput() {
            return PerftestOutput.parse(guest.lines());
        }

        /** Both transcripts, under {@code title}, naming each side's role. */
        String context(String title, String jroceRole, String guestRole) {
            return title + "\n--- jroce (" + jroceRole + "):\n" + jroce.transcript() + "\n--- rxe (" + guestRole
                + "), status " + guest.status + ":\n" + String.join("\n", guest.lines);
        }
    }

    private PerftestLab(RxeNetwork network, RxePeer guest, String prefix, List<Step> steps) {
        this.network = network;
        this.guest = guest;
        this.prefix = prefix;
        this.steps = steps;
    }

    /**
     * Starts the guest. Its script: {@code f <k> <tool> <options>} runs one step between a begin and an
     * end line (the end line carries {@code $r}), {@code L f} runs all; {@code run} is the command of one
     * step for this network, which runs {@code ib_$t} and sets {@code r} to its status.
     */
    static PerftestLab start(String name, String prefix, List<Step> steps, Function<RxeNetwork, String> run) {
        RxeNetwork network = RxeNetwork.builder().create();
        try {
            StringBuilder script = new StringBuilder("f(){ k=$1;t=$2;shift 2;echo \"### " + prefix + "$k begin\";"
                + run.apply(network) + ";echo \"### " + prefix + "$k end $r\";};L(){ ");
            for (int k = 0; k < steps.size(); k++) {
                script.append("$1 ").append(k + 1).append(' ').append(steps.get(k).tool()).append(' ')
                    .append(steps.get(k).options()).append(';');
            }
            script.append("};L f");
            RxePeer guest = RxePeer.builder().name(name).network(network).command(script.toString())
                .guestTimeout(Duration.ofMinutes(12)).start();
            return new PerftestLab(network, guest, prefix, steps);
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** One test a step, numbered from 1; the lab closes when the stream does. */
    <T> Stream<T> steps(BiFunction<Step, Integer, T> test) {
        List<T> tests = new ArrayList<>();
        for (int k = 0; k < steps.size(); k++) {
            tests.add(test.apply(steps.get(k), k + 1));
        }
        return tests.stream().onClose(this::close);
    }

    /** The host's GID as perftest prints it: the IPv4-mapped address of jroce's --bind. */
    String hostGid() {
        return PerftestOutput.ipv4Gid(network.hostIpv4());
    }

    String guestGid() {
        return PerftestOutput.ipv4Gid(guest.ipv4());
    }

    private String begin(int k) {
        return "### " + prefix + k + " begin";
    }

    /** Waits for step k's end line and returns what the guest printed between its begin and end lines. */
    GuestRun awaitEnd(int k) {
        String endPrefix = "### " + prefix + k + " end ";
        String end = guest.awaitOutput(endPrefix, STEP);
        List<String> console = guest.consoleLines();
        int from = console.indexOf(begin(k));
        int to = console.indexOf(end);
        List<String> lines = from >= 0 && to > from ? console.subList(from + 1, to) : List.of();
        return new GuestRun(Integer.parseInt(end.substring(end.indexOf(endPrefix) + endPrefix.length()).trim()),
            List.copyOf(lines));
    }

    /**
     * Step k with the guest as server: once its begin line shows, jroce's client runs, again while its
     * transcript says {@code notYet} (the guest's server prints its begin line a moment before it
     * listens), 1 s apart within the {@link StartupGuard}, a hung run cancelled; captured on the guest's tap0 into
     * {@code pcap} unless null (jroce's GSO datagrams are cut into packets there, see RoceCapture).
     */
    Outcome jroceClient(int k, List<String> args, String notYet, Path pcap) throws Exception {
        guest.awaitOutput(begin(k), BOOT);
        RoceCapture capture = pcap == null ? null : RoceCapture.startInNetns(guest.containerPid(), "tap0", pcap);
        JroceCommand.Result jroce;
        try {
            jroce = runWhile(args, notYet);
        } finally {
            if (capture != null) {
                capture.stop();
            }
        }
        return new Outcome(jroce, awaitEnd(k), capture);
    }

    private JroceCommand.Result runWhile(List<String> args, String notYet) throws Exception {
        JroceCommand.Result r = null;
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            JroceCommand c = JroceCommand.start(pool, args.toArray(String[]::new));
            try {
                r = c.await(STEP);
            } catch (Exception e) {
                c.cancel();
                throw e;
            }
            if (r.status() == 0 || !r.transcript().contains(notYet)) {
                break;
            }
            Thread.sleep(1000);
        }
        return r;
    }

    /**
     * Step k with the guest as client of jroce's server: the server runs until the guest's step ended
     * and then for {@link #STEP}, or for {@code afterFailure} when the guest's client failed.
     */
    Outcome jroceServer(int k, List<String> args, Duration afterFailure) throws Exception {
        JroceCommand server = JroceCommand.start(pool, args.toArray(String[]::new));
        try {
            GuestRun run = awaitEnd(k);
            return new Outcome(server.await(run.status() == 0 ? STEP : afterFailure), run, null);
        } catch (Exception | AssertionError e) {
            server.cancel();
            throw e;
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            guest.close();
        } finally {
            network.close();
        }
        LOG.info("{}: guest and network closed", guest.name());
    }
}
