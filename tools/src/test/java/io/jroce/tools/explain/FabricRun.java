package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.testsupport.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Two jroce devices on a seeded simulated fabric that captures its wire
 * ({@code SimulatedFabric.Builder.pcap}, at the receivers' side), each keeping an event log:
 * jroce0 (10.0.0.1, A) the requester, jroce1 (10.0.0.2, B) the responder, one RC QP each
 * ({@link RcPair}, first PSNs 0x100 and 0x200). The fabric runs in virtual time on the test's
 * thread, so a script gives the same capture and logs, byte for byte, on every run.
 */
final class FabricRun implements AutoCloseable {
    static final long SEED = 18;
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    /** The most virtual time a run waits for a completion: far beyond every timer of its QPs. */
    private static final long MAX_WAIT_NS = 60_000_000_000L;

    final SimulatedFabric fabric;
    /** The fabric's capture; complete once the run is closed. */
    final Path pcap;
    /** A's and B's event logs in one file, as {@code jroce explain} reads them; written when the run closes. */
    final Path logs;
    private final Path logA;
    private final Path logB;
    final RcPair qps;
    private boolean closed;

    /** Opens the devices and connects their QPs with {@code connector}; {@code rule} (null: none) acts from the first packet. */
    FabricRun(Path dir, String name, QpConnector connector, FaultRule rule) {
        pcap = dir.resolve(name + ".pcap");
        logs = dir.resolve(name + ".jsonseq");
        logA = dir.resolve(name + "-jroce0.jsonseq");
        logB = dir.resolve(name + "-jroce1.jsonseq");
        fabric = SimulatedFabric.builder().seed(SEED).pcap(pcap).build();
        if (rule != null) {
            fabric.faults().add(rule);
        }
        qps = new RcPair(
            SoftRnic.builder().name("jroce0").address("10.0.0.1").jmx(false).eventLog(logA).openOn(fabric),
            SoftRnic.builder().name("jroce1").address("10.0.0.2").jmx(false).eventLog(logB).openOn(fabric),
            4096, ACCESS, connector.accessFlags(ACCESS), 0x100, 0x200);
    }

    /** Runs the fabric until A's next completion, which must be a success. */
    void completes() {
        WorkCompletion wc = new WorkCompletion();
        assertTrue(fabric.runUntil(() -> qps.cqA.poll(wc), MAX_WAIT_NS),
            () -> "the work request never completed; seed " + SEED + ", trace:\n" + fabric.trace());
        assertEquals(WcStatus.SUCCESS, wc.status(), wc::toString);
    }

    /** Closes the devices and the capture, and puts both logs in {@link #logs}. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            qps.close();
        } finally {
            fabric.closeCapture();
        }
        Files.write(logs, Files.readAllBytes(logA));
        Files.write(logs, Files.readAllBytes(logB), StandardOpenOption.APPEND);
    }
}
