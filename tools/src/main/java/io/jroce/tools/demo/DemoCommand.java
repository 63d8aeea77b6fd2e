package io.jroce.tools.demo;

import io.jroce.tools.Command;
import io.jroce.tools.DeviceOpenFailure;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.TransportException;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;
import java.util.List;
import java.util.SplittableRandom;

/** {@code jroce demo}: see {@link DemoOptions#USAGE}. */
public final class DemoCommand implements Command {
    /** The most outstanding READs and atomics the demo asks for, as ibv_rc_pingpong's peers would. */
    private static final int MAX_RD_ATOMIC = 16;

    @Override
    public String name() {
        return "demo";
    }

    @Override
    public String summary() {
        return "two soft RNICs on loopback run every RC operation, each byte checked";
    }

    @Override
    public String usage() {
        return DemoOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        DemoOptions options = DemoOptions.parse(args);
        SplittableRandom psns = new SplittableRandom(options.seed());
        int status;
        // jroce0 takes part in every exchange: its capture holds each packet of the demo once.
        try (Endpoint requester = new Endpoint(options.requesterDevice(), psns.nextInt(1 << 24));
             Endpoint responder = new Endpoint(options.responderDevice(), psns.nextInt(1 << 24))) {
            status = connectAndRun(options, requester, responder, out, err);
        } catch (TransportException e) {
            DeviceOpenFailure.report("demo", e, options.port(), List.of(), err);
            return ExitStatus.FAILED;
        } catch (VerbsException e) {
            err.println("jroce demo: error: " + e);
            return ExitStatus.FAILED;
        }
        return status;
    }

    private static int connectAndRun(DemoOptions options, Endpoint requester, Endpoint responder, PrintStream out,
                                     PrintStream err) throws InterruptedException {
        int rdAtomic = Math.max(1, Math.min(MAX_RD_ATOMIC, Math.min(rdAtomicLimit(requester), rdAtomicLimit(responder))));
        try {
            requester.connect(responder, options.pathMtu(), rdAtomic);
            responder.connect(requester, options.pathMtu(), rdAtomic);
        } catch (VerbsException e) {
            err.println("jroce demo: error: connecting the queue pairs failed: " + e);
            return ExitStatus.FAILED;
        }
        return new DemoRun(options, requester, responder, rdAtomic, out, err).run();
    }

    /** The most outstanding READs and atomics the device allows a QP, as requester and as responder. */
    private static int rdAtomicLimit(Endpoint e) {
        DeviceAttributes attrs = e.device().queryDevice();
        return Math.min(attrs.maxQpInitRdAtom(), attrs.maxQpRdAtom());
    }
}
