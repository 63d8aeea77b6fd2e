package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.FabricEndpoint;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WrOpcode;

/** Bad packets are dropped and counted by reason; none crashes the receive path or touches memory. */
class BadPacketsFabricTest {
    private final UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(8192));
    private final RocePacket packet = new RocePacket();

    private static byte[] gid(String ip) {
        return Gid.parse(ip).toBytes();
    }

    /** Sends {@code length} bytes of {@link #buf} to device B as if from {@code src}, with a valid ICRC. */
    private void inject(FabricPair p, FabricEndpoint rogue, String src, int length) {
        rogue.send(buf, 0, length, gid(src), gid("10.0.0.2"), 4791);
        p.fabric.runFor(1_000_000);
    }

    private int sendOnly(FabricPair p, int destQp, int psn) {
        int len = packet.build(buf, 0, Opcode.RC_SEND_ONLY, 4);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(destQp).psn(psn);
        return len;
    }

    private static long count(FabricPair p, String name) {
        Map<String, Long> c = p.b.device.counters();
        return c.get(name);
    }

    @Test
    void eachKindOfBadPacketIsCountedUnderItsReason() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            FabricEndpoint rogue = p.fabric.attach("10.0.0.9", 4791, new Counters());
            int qpn = p.b.qp.qpNum();

            int len = sendOnly(p, 0x777, 0x200);
            inject(p, rogue, "10.0.0.1", len);
            assertEquals(1, count(p, "drop_unknown_qpn"));

            len = sendOnly(p, qpn, 0x200);
            inject(p, rogue, "10.0.0.9", len);
            assertEquals(1, count(p, "drop_wrong_address"), "a connected QP accepts only its peer's address");

            len = sendOnly(p, qpn, 0x200);
            packet.bth().partitionKey(0x1234);
            inject(p, rogue, "10.0.0.1", len);
            assertEquals(1, count(p, "drop_bad_pkey"));

            len = sendOnly(p, qpn, 0x200);
            packet.bth().transportVersion(1);
            inject(p, rogue, "10.0.0.1", len);
            assertEquals(1, count(p, "drop_bad_tver"));

            len = sendOnly(p, qpn, 0x200);
            buf.putByte(0, (byte) 0x1F); // reserved RC opcode
            inject(p, rogue, "10.0.0.1", len);
            assertEquals(1, count(p, "drop_unknown_opcode"));

            packet.build(buf, 0, Opcode.RC_SEND_ONLY, 0);
            packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(qpn).psn(0x200);
            buf.putByte(0, (byte) Opcode.RC_RDMA_WRITE_FIRST); // needs a RETH the 12 bytes lack
            inject(p, rogue, "10.0.0.1", BthFlyweight.LENGTH);
            assertEquals(1, count(p, "drop_truncated"));

            // A SEND whose pad count 0 leaves 5, 6 or 7 bytes of payload: payload + pad is not a
            // whole number of words. At the expected PSN, with a receive posted, it would
            // otherwise be delivered.
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            for (int extra = 1; extra <= 3; extra++) {
                len = sendOnly(p, qpn, 0x200);
                inject(p, rogue, "10.0.0.1", len + extra);
                assertEquals(extra, count(p, "drop_bad_pad"), (4 + extra) + " bytes of payload with pad count 0");
            }

            p.fabric.fault(d -> {
                d.packet().putByte(13, (byte) (d.packet().getByte(13) ^ 0x10));
                return true;
            });
            len = sendOnly(p, qpn, 0x200);
            inject(p, rogue, "10.0.0.1", len);
            assertEquals(1, count(p, "drop_bad_icrc"));
            p.fabric.fault(d -> true);

            assertEquals(0, count(p, "rcvd_pkts"), "nothing reached a QP");
            assertEquals(0, count(p, "drop_internal_error"));
            assertEquals(QpState.RTS, p.b.qp.state());
        }
    }

    @Test
    void randomAndBitFlippedDatagramsNeverCrashAndTheConnectionStillWorks() {
        long seed = 42;
        Random r = new Random(seed);
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            FabricEndpoint rogue = p.fabric.attach("10.0.0.9", 4791, new Counters());
            byte[] before = new byte[1 << 16];
            p.b.mr.buffer().get(0, before);
            for (int i = 0; i < 5000; i++) {
                int len = 12 + r.nextInt(200);
                byte[] junk = new byte[len];
                r.nextBytes(junk);
                buf.putBytes(0, junk);
                // Aim some of them at the real QP from the real peer's address, so deeper checks run.
                if (r.nextBoolean()) {
                    BthFlyweight bth = new BthFlyweight().wrap(buf, 0);
                    bth.destQp(p.b.qp.qpNum()).partitionKey(0xFFFF).transportVersion(0)
                        .psn(0x200 + 1000 + r.nextInt(1000)); // ahead of the expected PSN: never executed
                    bth.opcode(r.nextInt(0x18));
                }
                rogue.send(buf, 0, len, gid("10.0.0.1"), gid("10.0.0.2"), 4791);
            }
            p.fabric.runFor(10_000_000);
            assertEquals(0, count(p, "drop_internal_error"), "seed " + seed + ": " + p.b.device.counters());
            byte[] after = new byte[1 << 16];
            p.b.mr.buffer().get(0, after);
            assertArrayEquals(before, after, "seed " + seed + ": junk must not write memory");
            // The connection still carries a message after the junk (the responder NAKed the PSN gaps).
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, 64)));
            assertEquals(WcStatus.SUCCESS, p.await(p.b.cq, 1).get(0).status());
            assertTrue(count(p, "drop_unknown_opcode") + count(p, "drop_truncated") + count(p, "drop_bad_tver") > 0);
        }
    }

    @Test
    void aWriteOutsideTheRegionIsNakedAndWritesNothing() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            byte[] before = new byte[1 << 16];
            p.b.mr.buffer().get(0, before);
            p.a.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address() + (1 << 16) - 10).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, 100)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            assertEquals(QpState.ERR, p.a.qp.state());
            byte[] after = new byte[1 << 16];
            p.b.mr.buffer().get(0, after);
            assertArrayEquals(before, after);
        }
    }
}
