package io.jroce.stack.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.LinkConditions;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.RocePacket;

/** The fabric's faults do what they say, per link, reproducibly from the seed. */
class SimulatedFabricFaultsTest {
    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";

    /** Two endpoints on one fabric; B records the PSN of every packet it accepts. */
    private static final class Net {
        final SimulatedFabric fabric;
        final Counters countersA = new Counters();
        final Counters countersB = new Counters();
        final FabricEndpoint a;
        final FabricEndpoint b;
        final List<Integer> atA = new ArrayList<>();
        final List<Integer> atB = new ArrayList<>();
        private final UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        private final RocePacket packet = new RocePacket();

        Net(long seed) {
            this(SimulatedFabric.builder().seed(seed).build());
        }

        Net(SimulatedFabric fabric) {
            this.fabric = fabric;
            a = fabric.attach(A, 4791, countersA);
            b = fabric.attach(B, 4791, countersB);
            a.start((p, o, l, s, sp, d) -> atA.add(p.getInt(o + 8, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFFFF));
            b.start((p, o, l, s, sp, d) -> atB.add(p.getInt(o + 8, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFFFF));
        }

        void send(FabricEndpoint from, String src, String dst, int opcode, int psn, int payload) {
            int len = packet.build(buf, 0, opcode, payload);
            packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(0x11).psn(psn);
            from.send(buf, 0, len, SimulatedFabric.toGidBytes(src), SimulatedFabric.toGidBytes(dst), 4791);
        }

        void nak(int psn) {
            int len = packet.build(buf, 0, Opcode.RC_ACKNOWLEDGE, 0);
            packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(0x11).psn(psn);
            packet.aeth().syndrome(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            b.send(buf, 0, len, SimulatedFabric.toGidBytes(B), SimulatedFabric.toGidBytes(A), 4791);
        }

        /** Sends {@code n} SEND_ONLY packets A to B, PSN 0.., one every {@code gapNs}, then drains. */
        Net burst(int n, long gapNs) {
            for (int i = 0; i < n; i++) {
                send(a, A, B, Opcode.RC_SEND_ONLY, i, 64);
                if (gapNs > 0) {
                    fabric.runFor(gapNs);
                }
            }
            fabric.runFor(100_000_000);
            return this;
        }
    }

    private static List<String> lines(SimulatedFabric f) {
        List<String> out = new ArrayList<>();
        for (TraceEvent e : f.trace().events()) {
            out.add(e.format());
        }
        return out;
    }

    private static LinkConditions everything() {
        return LinkConditions.ideal().loss(0.1).duplicate(0.05).reorder(0.05, 20_000).delay(500).jitter(3_000)
            .corrupt(0.03);
    }

    @Test
    void theSameSeedReplaysTheSameRunAndAnotherSeedDoesNot() {
        Net one = new Net(7);
        Net two = new Net(7);
        Net other = new Net(8);
        for (Net n : List.of(one, two, other)) {
            n.fabric.faults().defaults(everything());
            n.burst(500, 1_000);
        }
        assertEquals(lines(one.fabric), lines(two.fabric));
        assertEquals(one.atB, two.atB);
        assertNotEquals(one.atB, other.atB, "seed 8 should not replay seed 7");
    }

    @Test
    void lossDropsAboutItsShareAndTheTraceCountsEveryDrop() {
        Net n = new Net(1);
        n.fabric.faults().defaults(LinkConditions.ideal().loss(0.2));
        n.burst(10_000, 0);
        long dropped = n.fabric.trace().count(Fate.DROPPED);
        assertEquals(10_000 - dropped, n.atB.size());
        assertTrue(dropped > 1_800 && dropped < 2_200, "seed 1: dropped " + dropped + " of 10000 at 20% loss");
    }

    @Test
    void delayAndJitterNeverReorderALink() {
        Net n = new Net(2);
        n.fabric.faults().defaults(LinkConditions.ideal().delay(10_000).jitter(50_000));
        n.burst(2_000, 0);
        assertEquals(2_000, n.atB.size());
        for (int i = 0; i < n.atB.size(); i++) {
            assertEquals(i, n.atB.get(i), "seed 2: jitter reordered the link at " + i);
        }
        for (TraceEvent e : n.fabric.trace().last(100)) {
            assertTrue(e.arriveNs() - e.timeNs() >= 11_000, e.format()); // base 1 us + 10 us
        }
    }

    @Test
    void reorderedPacketsAreOvertakenButAllArrive() {
        Net n = new Net(3);
        n.fabric.faults().defaults(LinkConditions.ideal().reorder(0.1, 30_000));
        n.burst(2_000, 1_000);
        assertEquals(2_000, n.atB.size());
        int inversions = 0;
        for (int i = 1; i < n.atB.size(); i++) {
            if (n.atB.get(i) < n.atB.get(i - 1)) {
                inversions++;
            }
        }
        long reordered = n.fabric.trace().count(Fate.REORDERED);
        assertTrue(reordered > 150 && reordered < 250, "seed 3: reordered " + reordered);
        assertTrue(inversions > 0 && inversions <= reordered, "seed 3: " + inversions + " inversions");
    }

    @Test
    void aHeldBackPacketIsOvertakenButNeverOvertakes() {
        Net n = new Net(13);
        n.fabric.faults().defaults(LinkConditions.ideal().jitter(50_000).reorder(0.1, 5_000));
        n.burst(2_000, 0);
        long latestInOrder = Long.MIN_VALUE;
        int held = 0;
        for (TraceEvent e : n.fabric.trace().events()) { // in send order
            if (e.fate() == Fate.REORDERED) {
                held++;
                assertTrue(e.arriveNs() > latestInOrder, "seed 13: overtook an earlier packet: " + e.format());
            } else {
                latestInOrder = Math.max(latestInOrder, e.arriveNs());
            }
        }
        assertTrue(held > 150, "seed 13: " + held + " held back");
    }

    @Test
    void duplicatesArriveAsExtraCopies() {
        Net n = new Net(4);
        n.fabric.faults().defaults(LinkConditions.ideal().duplicate(0.1));
        n.burst(2_000, 0);
        long copies = n.fabric.trace().count(Fate.DUPLICATED);
        assertTrue(copies > 150, "seed 4: " + copies + " copies");
        assertEquals(2_000 + copies, n.atB.size());
        assertEquals(2_000, n.atB.stream().distinct().count());
    }

    @Test
    void aCorruptedPacketFailsTheIcrcAndIsCountedNotDelivered() {
        Net n = new Net(5);
        n.fabric.faults().defaults(LinkConditions.ideal().corrupt(0.1));
        n.burst(2_000, 0);
        long corrupted = n.fabric.trace().count(Fate.CORRUPTED);
        assertTrue(corrupted > 150, "seed 5: " + corrupted + " corrupted");
        assertEquals(corrupted, n.countersB.get(Counter.DROP_BAD_ICRC));
        assertEquals(2_000 - corrupted, n.atB.size());
    }

    @Test
    void eachDirectionOfALinkHasItsOwnConditions() {
        Net n = new Net(6);
        n.fabric.faults().link(A, B, LinkConditions.ideal().loss(1.0));
        for (int i = 0; i < 100; i++) {
            n.send(n.a, A, B, Opcode.RC_SEND_ONLY, i, 0);
            n.send(n.b, B, A, Opcode.RC_SEND_ONLY, i, 0);
        }
        n.fabric.runFor(1_000_000);
        assertEquals(0, n.atB.size());
        assertEquals(100, n.atA.size());
    }

    @Test
    void aRuleCanDropOnlyTheSecondMatchingPacket() {
        Net n = new Net(9);
        FaultRule rule = n.fabric.faults().add(
            FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2).named("2nd READ response"));
        n.send(n.a, A, B, Opcode.RC_SEND_ONLY, 1, 0); // not a match
        for (int psn = 10; psn < 14; psn++) {
            n.send(n.a, A, B, psn == 10 ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                : psn == 13 ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, psn, 16);
        }
        n.fabric.runFor(1_000_000);
        assertEquals(List.of(1, 10, 12, 13), n.atB);
        assertEquals(1, rule.applied());
        assertEquals(4, rule.seen());
        TraceEvent dropped = n.fabric.trace().events().get(2);
        assertEquals(Fate.DROPPED, dropped.fate());
        assertEquals("RC_RDMA_READ_RESPONSE_MIDDLE", dropped.opcodeName());
        assertTrue(dropped.format().contains("2nd READ response"), dropped.format());
    }

    @Test
    void aRuleWithAWindowDropsEveryMatchForThatLongOnly() {
        Net n = new Net(10);
        FaultRule rule = n.fabric.faults().add(FaultRule.drop(PacketMatch.naks()).forNs(5_000_000));
        for (int i = 0; i < 20; i++) {
            n.nak(i); // one NAK per ms: the first five fall into the outage
            n.send(n.a, A, B, Opcode.RC_SEND_ONLY, i, 0); // never matches
            n.fabric.runFor(1_000_000);
        }
        assertEquals(5, rule.applied());
        assertEquals(List.of(5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19), n.atA);
        assertEquals(20, n.atB.size());
    }

    @Test
    void aRuleCanDropAPsnOnceAndRulesCompose() {
        Net n = new Net(11);
        FaultRule once = n.fabric.faults().add(FaultRule.drop(PacketMatch.psn(3).and(PacketMatch.from(A))).once());
        FaultRule dup = n.fabric.faults().add(FaultRule.duplicate(PacketMatch.psn(5).or(PacketMatch.psn(6))));
        FaultRule late = n.fabric.faults().add(FaultRule.delay(PacketMatch.psn(1), 500_000));
        for (int round = 0; round < 2; round++) {
            for (int psn = 0; psn < 8; psn++) {
                n.send(n.a, A, B, Opcode.RC_SEND_ONLY, psn, 0);
            }
            n.fabric.runFor(1_000_000);
        }
        assertEquals(List.of(0, 2, 4, 5, 5, 6, 6, 7, 1, 0, 2, 3, 4, 5, 5, 6, 6, 7, 1), n.atB);
        assertEquals(1, once.applied());
        assertEquals(4, dup.applied());
        assertEquals(2, late.applied());
        assertEquals(2, n.fabric.trace().count(Fate.REORDERED));
    }

    @Test
    void theTraceKeepsTheNewestEventsAndTheHookStillWorks() {
        Net n = new Net(SimulatedFabric.builder().seed(12).traceCapacity(16).build());
        n.fabric.fault(d -> d.psn() != 2);
        n.burst(40, 0);
        assertEquals(39, n.atB.size());
        assertEquals(1, n.fabric.trace().count(Fate.DROPPED));
        assertEquals(40, n.fabric.trace().recorded());
        List<TraceEvent> held = n.fabric.trace().events();
        assertEquals(16, held.size());
        assertEquals(24, held.get(0).psn());
        assertEquals(39, held.get(15).psn());
        String dump = n.fabric.trace().dump(3);
        assertTrue(dump.contains("10.0.0.1>10.0.0.2 req RC_SEND_ONLY psn=0x000027 len=76 DELIVERED @0.001000ms"), dump);
        assertEquals(12, n.fabric.seed());
    }
}
