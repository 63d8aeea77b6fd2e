package io.jroce.tools.demo;

import io.jroce.tools.ExitStatus;
import io.jroce.verbs.QpState;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;
import java.util.List;

/** Runs the steps over two connected endpoints and prints the table and the summary. */
final class DemoRun {
    private final DemoOptions options;
    private final Endpoint requester;
    private final Endpoint responder;
    private final int rdAtomic;
    private final PrintStream out;
    private final PrintStream err;

    DemoRun(DemoOptions options, Endpoint requester, Endpoint responder, int rdAtomic, PrintStream out,
            PrintStream err) {
        this.options = options;
        this.requester = requester;
        this.responder = responder;
        this.rdAtomic = rdAtomic;
        this.out = out;
        this.err = err;
    }

    int run() throws InterruptedException {
        introduce();
        List<DemoStep> steps = DemoSteps.forMtu(options.pathMtu());
        StepTable table = new StepTable(out, requester.name(), responder.name());
        TrafficMeter meter = new TrafficMeter(requester, responder);
        table.header();
        long start = System.nanoTime();
        int verified = 0;
        int failed = 0;
        for (int i = 0; i < steps.size(); i++) {
            DemoStep step = steps.get(i);
            meter.mark();
            StepOutcome outcome = runStep(i + 1, step, meter);
            table.row(i + 1, step, outcome);
            if (outcome.verified()) {
                verified++;
                continue;
            }
            failed++;
            out.flush();
            err.printf("jroce demo: error: step %d (%s, %d bytes) failed: %s%n", i + 1, step.opcode(), step.bytes(),
                outcome.failure().getMessage());
            String broken = brokenQueuePair();
            int left = steps.size() - i - 1;
            if ((outcome.failure().fatal() || broken != null) && left > 0) {
                err.printf("jroce demo: error: the remaining %d steps were not run: %s%n", left,
                    broken != null ? broken : "after this failure the queue pairs' state is unknown");
                break;
            }
        }
        summarize(verified, failed, steps.size(), System.nanoTime() - start);
        return verified == steps.size() ? ExitStatus.OK : ExitStatus.FAILED;
    }

    private void introduce() {
        out.printf("jroce demo: one RC queue pair on each of two software RNICs, %s -> %s, path MTU %d, seed %d%n%n",
            requester.name(), responder.name(), options.pathMtu().bytes(), options.seed());
        for (Endpoint e : List.of(requester, responder)) {
            out.printf("  %-7s %-9s UDP %-5d  GID %s  QPN 0x%06x  PSN 0x%06x%n", e.name(), e.address(), e.port(),
                e.gid(), e.qp().qpNum(), e.psn());
        }
        out.printf("  Both QPs went INIT -> RTR -> RTS with the peer's QPN, PSN and GID: timeout 14, retry_cnt 7,%n");
        out.printf("  rnr_retry 7, min_rnr_timer 12, max_rd_atomic = max_dest_rd_atomic = %d.%n", rdAtomic);
        out.printf("  Each step posts one work request on %s, waits (at most %d s) for the completions, then checks%n",
            requester.name(), options.timeoutSeconds());
        out.printf("  every byte that arrived, and the immediate data or atomic values.%n%n");
    }

    private StepOutcome runStep(int number, DemoStep step, TrafficMeter meter) throws InterruptedException {
        StepContext c = new StepContext(requester, responder, number, options.seed(), options.timeoutSeconds());
        long t0 = System.nanoTime();
        String result = null;
        StepFailedException failure = null;
        try {
            result = step.run(c);
            c.expectNoMoreCompletions();
        } catch (StepFailedException e) {
            failure = e;
        } catch (VerbsException e) {
            failure = new StepFailedException(e.toString(), true);
        }
        long elapsed = System.nanoTime() - t0;
        TrafficMeter.Delta traffic = meter.settle();
        if (failure == null) {
            failure = checkSegmentation(step, traffic);
        }
        long resent = traffic.requester().retransmittedPkts() + traffic.responder().retransmittedPkts();
        if (failure == null && resent > 0) {
            result += String.format(" (retransmitted_pkts +%,d)", resent);
        }
        return new StepOutcome(c.requesterCompletion(), c.responderCompletion(), traffic, elapsed,
            failure == null ? result : null, failure);
    }

    /** The side that carries the data must have sent at least one packet per path MTU of it. */
    private StepFailedException checkSegmentation(DemoStep step, TrafficMeter.Delta traffic) {
        int mtu = options.pathMtu().bytes();
        int needed = Math.max(1, (step.bytes() + mtu - 1) / mtu);
        Endpoint sender = step.dataFlowsBack() ? responder : requester;
        DeviceCounters sent = step.dataFlowsBack() ? traffic.responder() : traffic.requester();
        if (sent.sentPkts() >= needed) {
            return null;
        }
        return new StepFailedException(String.format("%s sent %d packet(s), but %d bytes need at least %d at path MTU %d",
            sender.name(), sent.sentPkts(), step.bytes(), needed, mtu), false);
    }

    /** Why the queue pairs cannot run more steps, or null while both are in RTS. */
    private String brokenQueuePair() {
        for (Endpoint e : List.of(requester, responder)) {
            QpState state = e.qp().state();
            if (state != QpState.RTS) {
                return e.name() + "'s QP is in " + state;
            }
        }
        return null;
    }

    private void summarize(int verified, int failed, int total, long elapsedNs) {
        out.printf("%n%d of %d steps verified in %.2f s.%n", verified, total, elapsedNs / 1e9);
        DeviceCounters req = DeviceCounters.read(requester.device());
        DeviceCounters resp = DeviceCounters.read(responder.device());
        for (Endpoint e : List.of(requester, responder)) {
            DeviceCounters c = e == requester ? req : resp;
            out.printf("  %-7s sent %,d packets (%,d bytes), received %,d packets (%,d bytes), retransmitted_pkts %,d%n",
                e.name(), c.sentPkts(), c.sentBytes(), c.rcvdPkts(), c.rcvdBytes(), c.retransmittedPkts());
        }
        long lost = req.sentPkts() - resp.rcvdPkts() + resp.sentPkts() - req.rcvdPkts();
        out.printf("  lost on the way (sent by one RNIC, never received by the other): %,d packets%s%n", lost,
            lost > 0 ? " (RC sends them again; on loopback, a full UDP receive buffer is the usual cause)" : "");
        StringBuilder drops = new StringBuilder();
        req.drops().forEach((name, value) -> drops.append(String.format(" %s %s=%d", requester.name(), name, value)));
        resp.drops().forEach((name, value) -> drops.append(String.format(" %s %s=%d", responder.name(), name, value)));
        out.printf("  dropped by the RNICs (drop_* counters):%s%n", drops.length() == 0 ? " none" : drops);
        if (verified != total) {
            out.flush();
            err.printf("jroce demo: error: %d of %d steps failed, %d not run%n", failed, total, total - verified - failed);
        }
    }
}
