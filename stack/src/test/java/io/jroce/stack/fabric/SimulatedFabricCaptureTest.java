package io.jroce.stack.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.PcapReader;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric's capture holds what its receivers' side of the wire carried: each datagram when it
 * was delivered, as it was delivered, stamped with the virtual clock.
 */
class SimulatedFabricCaptureTest {
    @TempDir
    Path dir;

    private final UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final RocePacket packet = new RocePacket();

    private void send(FabricEndpoint from, String src, String dst, int psn) {
        int len = packet.build(buf, 0, Opcode.RC_SEND_ONLY, 64);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(0x11).psn(psn);
        from.send(buf, 0, len, SimulatedFabric.toGidBytes(src), SimulatedFabric.toGidBytes(dst), 4791);
    }

    @Test
    void aDroppedPacketIsAbsentACorruptedOneFailsItsIcrcAHeldBackOneIsOvertakenACopiedOneIsThereTwice()
        throws IOException {
        Path file = dir.resolve("fabric.pcap");
        SimulatedFabric fabric = SimulatedFabric.builder().seed(1).pcap(file).build();
        fabric.faults().add(FaultRule.drop(PacketMatch.psn(3)).once());
        fabric.faults().add(FaultRule.corrupt(PacketMatch.psn(4)).once());
        fabric.faults().add(FaultRule.delay(PacketMatch.psn(1), 500_000).once());
        fabric.faults().add(FaultRule.duplicate(PacketMatch.psn(5)).once());
        FabricEndpoint a = fabric.attach("10.0.0.1", 4791, new Counters());
        fabric.attach("10.0.0.2", 4791, new Counters()).start((p, o, l, s, sp, d) -> { });
        for (int psn = 0; psn < 8; psn++) {
            send(a, "10.0.0.1", "10.0.0.2", psn);
            fabric.runFor(100); // 100 ns apart, each 1 us on the way
        }
        fabric.runFor(1_000_000);
        fabric.closeCapture();

        List<RoceFrame> frames = RoceFrame.read(file);
        List<Integer> psns = new ArrayList<>();
        List<Boolean> verifies = new ArrayList<>();
        IcrcCheck check = new IcrcCheck();
        for (RoceFrame f : frames) {
            psns.add(f.psn());
            verifies.add(check.verifies(f));
        }
        assertEquals(List.of(0, 2, 4, 5, 5, 6, 7, 1), psns, "in the order they arrived");
        assertEquals(List.of(true, true, false, true, true, true, true, true), verifies, "only PSN 4 was corrupted");
        // Each frame is stamped when it arrived: the trace's arrival times, in arrival order.
        List<Long> arrivals = new ArrayList<>();
        for (TraceEvent e : fabric.trace().events()) {
            if (e.fate() != Fate.DROPPED) {
                arrivals.add(e.arriveNs());
            }
        }
        arrivals.sort(null);
        List<Long> stamps = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (PcapReader.Record r : PcapReader.read(in)) {
                stamps.add(r.timestampNs());
            }
        }
        assertEquals(arrivals, stamps);
        assertEquals(1_000L, stamps.get(0), "PSN 0, sent at 0, arrives 1 us later: 1970-01-01 plus 1 us");
        assertTrue(stamps.get(7) >= 500_100, "PSN 1 held back 500 us: " + stamps.get(7));
    }

    @Test
    void ipv6DatagramsAreCapturedWithTheirOwnHeadersAndVerify() throws IOException {
        Path file = dir.resolve("v6.pcap");
        SimulatedFabric fabric = SimulatedFabric.builder().pcap(file).build();
        FabricEndpoint a = fabric.attach("fd00::1", 4791, new Counters());
        fabric.attach("fd00::2", 4791, new Counters());
        send(a, "fd00::1", "fd00::2", 7);
        fabric.runFor(10_000);
        // Flushed when the run returned: readable before the capture is closed.
        List<RoceFrame> frames = IcrcCheck.readVerified(file);
        assertEquals(1, frames.size());
        assertTrue(frames.get(0).ipv6());
        assertEquals(7, frames.get(0).psn());
        fabric.closeCapture();
        fabric.closeCapture();
    }

    @Test
    void withoutACaptureClosingItDoesNothing() throws IOException {
        SimulatedFabric fabric = SimulatedFabric.builder().build();
        fabric.closeCapture();
        assertFalse(Files.list(dir).findAny().isPresent());
    }
}
