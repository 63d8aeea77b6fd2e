package io.jroce.stack.fault;

import io.jroce.stack.transport.IpAddresses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;

/** The decorator applies a fault policy to what a real transport sends, in the same terms as the fabric. */
class FaultInjectingTransportTest {
    private static final byte[] A = IpAddresses.toGidBytes("10.0.0.1");
    private static final byte[] B = IpAddresses.toGidBytes("10.0.0.2");

    /** Records the PSN of every packet handed to it. */
    private static class Wire implements RoceTransport {
        final List<Integer> psns = new ArrayList<>();
        int flushes;

        @Override
        public void start(RocePacketHandler handler) {
        }

        @Override
        public boolean send(DirectBuffer packet, int offset, int length, byte[] src, byte[] dst, int dstPort) {
            psns.add(packet.getInt(offset + 8, ByteOrder.BIG_ENDIAN) & 0xFFFFFF);
            return true;
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public void close() {
        }
    }

    /** A virtual clock with a queue of scheduled sends, run by hand (tasks with equal times in order). */
    private static final class Clock implements DelayScheduler {
        private record Task(long at, long order, Runnable run) {
        }

        private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            (x, y) -> x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.order, y.order));
        long nowNs;
        long order;

        @Override
        public void schedule(long delayNs, Runnable task) {
            tasks.add(new Task(nowNs + delayNs, order++, task));
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                Task t = tasks.poll();
                nowNs = t.at;
                t.run.run();
            }
        }
    }

    private final UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
    private final RocePacket packet = new RocePacket();

    private void send(RoceTransport t, int psn) {
        int len = packet.build(buf, 0, Opcode.RC_SEND_ONLY, 16);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(5).psn(psn);
        t.send(buf, 0, len, A, B, 4791);
        buf.putInt(8, 0xFFFFFF, ByteOrder.BIG_ENDIAN); // the caller reuses its buffer at once
    }

    @Test
    void lostAndCorruptedPacketsNeverReachTheWireAndCopiesGoTwice() {
        Wire wire = new Wire();
        FaultPolicy policy = new FaultPolicy(3);
        PacketTrace trace = new PacketTrace(64);
        Clock clock = new Clock();
        FaultInjectingTransport t = new FaultInjectingTransport(wire, policy, trace, () -> clock.nowNs, null);
        policy.add(FaultRule.drop(PacketMatch.psn(1)));
        policy.add(FaultRule.corrupt(PacketMatch.psn(2)));
        policy.add(FaultRule.duplicate(PacketMatch.psn(3)));
        policy.add(FaultRule.delay(PacketMatch.psn(4), 1_000)); // no scheduler: sent at once
        for (int psn = 0; psn < 6; psn++) {
            send(t, psn);
        }
        assertEquals(List.of(0, 3, 3, 4, 5), wire.psns);
        assertEquals(1, trace.count(Fate.DROPPED));
        assertEquals(1, trace.count(Fate.CORRUPTED));
        assertEquals(1, trace.count(Fate.DUPLICATED));
        assertTrue(trace.dump(10).contains("RC_SEND_ONLY psn=0x000002 len=28 CORRUPTED"), trace.dump(10));
    }

    /**
     * Each fault reaches the listener during the send, with its cause, the packet's headers and the
     * frame number the sender gave it; the frame goes on to the wire with the packet, and a packet
     * nothing happens to is not reported.
     */
    @Test
    void theListenerHearsEachFaultWithItsRuleAndFrame() {
        List<Long> framesOnWire = new ArrayList<>();
        Wire wire = new Wire() {
            @Override
            public boolean send(DirectBuffer packet, int offset, int length, byte[] src, byte[] dst, int dstPort,
                                long frame) {
                framesOnWire.add(frame);
                return send(packet, offset, length, src, dst, dstPort);
            }
        };
        FaultPolicy policy = new FaultPolicy(3);
        List<String> heard = new ArrayList<>();
        FaultListener listener = (action, cause, p, frame) -> heard.add(action + " " + cause + " frame " + frame
            + " qp " + p.destQp() + " psn " + p.psn());
        FaultInjectingTransport t = new FaultInjectingTransport(wire, policy, new PacketTrace(64), () -> 0, null,
            listener);
        policy.add(FaultRule.drop(PacketMatch.psn(1)).named("lose 1"));
        policy.add(FaultRule.corrupt(PacketMatch.psn(2)).named("flip 2"));
        policy.add(FaultRule.duplicate(PacketMatch.psn(3)).named("copy 3"));
        policy.add(FaultRule.delay(PacketMatch.psn(4), 1_000).named("hold 4"));
        for (int psn = 0; psn < 6; psn++) {
            int len = packet.build(buf, 0, Opcode.RC_SEND_ONLY, 16);
            packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(5).psn(psn);
            t.send(buf, 0, len, A, B, 4791, 10 + psn);
        }
        assertEquals(List.of("DROP lose 1 (seen 1, applied 1) frame 11 qp 5 psn 1",
            "CORRUPT flip 2 (seen 1, applied 1) frame 12 qp 5 psn 2",
            "DUPLICATE copy 3 (seen 1, applied 1) frame 13 qp 5 psn 3",
            "DELAY hold 4 (seen 1, applied 1) frame 14 qp 5 psn 4"), heard);
        assertEquals(List.of(10L, 13L, 13L, 14L, 15L), framesOnWire, "lost and corrupted packets never reach the wire");
    }

    @Test
    void withASchedulerJitterKeepsTheOrderAndAHeldPacketIsOvertaken() {
        Wire wire = new Wire();
        FaultPolicy policy = new FaultPolicy(4).defaults(LinkConditions.ideal().delay(10_000).jitter(40_000));
        policy.add(FaultRule.delay(PacketMatch.psn(3), 1_000_000));
        Clock clock = new Clock();
        FaultInjectingTransport t = new FaultInjectingTransport(wire, policy, new PacketTrace(64), () -> clock.nowNs,
            clock);
        for (int psn = 0; psn < 20; psn++) {
            send(t, psn);
            clock.nowNs += 1_000;
        }
        assertEquals(List.of(), wire.psns, "everything is delayed");
        clock.runAll();
        List<Integer> expected = new ArrayList<>();
        for (int psn = 0; psn < 20; psn++) {
            if (psn != 3) {
                expected.add(psn);
            }
        }
        expected.add(3);
        assertEquals(expected, wire.psns, "seed 4: the PSNs as sent (a delayed send keeps its own copy of the bytes)");
        assertEquals(20, wire.flushes);
    }
}
