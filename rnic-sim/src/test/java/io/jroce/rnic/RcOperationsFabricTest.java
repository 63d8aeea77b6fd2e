package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** Every RC operation between two RNICs on the simulated fabric, byte-exact. */
class RcOperationsFabricTest {
    private static final int MR = 1 << 21;

    private static byte[] fill(FabricPair.Side s, int offset, int len, long seed) {
        byte[] data = new byte[len];
        new Random(seed).nextBytes(data);
        s.mr.buffer().put(offset, data);
        return data;
    }

    private static byte[] read(FabricPair.Side s, int offset, int len) {
        byte[] out = new byte[len];
        s.mr.buffer().get(offset, out);
        return out;
    }

    @ParameterizedTest
    @CsvSource({"1024,0", "1024,1", "1024,1023", "1024,1024", "1024,1025", "1024,1048576", "4096,4097", "4096,1048576"})
    void sendWithImmediate(int mtu, int size) {
        try (FabricPair p = new FabricPair(Mtu.fromBytes(mtu), MR)) {
            byte[] data = fill(p.a, 0, size, size);
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(p.b.mr, 0, MR)));
            p.a.qp.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND_WITH_IMM).immData(0x12345678)
                .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(p.a.mr, 0, size)));
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            WorkCompletion send = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
            assertEquals(WcOpcode.RECV, recv.opcode());
            assertEquals(size, recv.byteLen());
            assertTrue(recv.withImm());
            assertEquals(0x12345678, recv.immData());
            assertEquals(7, recv.wrId());
            assertEquals(WcStatus.SUCCESS, send.status(), send.toString());
            assertEquals(WcOpcode.SEND, send.opcode());
            assertEquals(9, send.wrId());
            assertArrayEquals(data, read(p.b, 0, size));
        }
    }

    @ParameterizedTest
    @CsvSource({"1024,0", "1024,1", "1024,1025", "1024,1048576", "4096,4096"})
    void writeAndRead(int mtu, int size) {
        try (FabricPair p = new FabricPair(Mtu.fromBytes(mtu), MR)) {
            byte[] data = fill(p.a, 0, size, size + 1);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address() + 64).rkey(p.b.mr.rkey()).sgList(ScatterGatherEntry.of(p.a.mr, 0, size)));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
            assertArrayEquals(data, read(p.b, 64, size));
            // Read it back into another place of A's memory.
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address() + 64).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, MR / 2, size)));
            WorkCompletion wc = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(WcOpcode.RDMA_READ, wc.opcode());
            assertArrayEquals(data, read(p.a, MR / 2, size));
        }
    }

    @ParameterizedTest
    @CsvSource({"1024,3000", "4096,1"})
    void writeWithImmediate(int mtu, int size) {
        try (FabricPair p = new FabricPair(Mtu.fromBytes(mtu), MR)) {
            byte[] data = fill(p.a, 0, size, 3);
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(5).sgList());
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).immData(-2)
                .sendFlags(SendFlags.SIGNALED).remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, size)));
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, recv.opcode());
            assertEquals(size, recv.byteLen());
            assertEquals(-2, recv.immData());
            assertArrayEquals(data, read(p.b, 0, size));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
        }
    }

    @ParameterizedTest
    @CsvSource({"1024"})
    void atomics(int mtu) {
        try (FabricPair p = new FabricPair(Mtu.fromBytes(mtu), MR)) {
            ByteBuffer target = p.b.mr.buffer().order(ByteOrder.nativeOrder());
            target.putLong(8, 100);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(5)
                .sendFlags(SendFlags.SIGNALED).remoteAddress(p.b.mr.address() + 8).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).compareAdd(105).swap(7)
                .sendFlags(SendFlags.SIGNALED).remoteAddress(p.b.mr.address() + 8).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, 8, 8)));
            p.a.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).compareAdd(105).swap(9)
                .sendFlags(SendFlags.SIGNALED).remoteAddress(p.b.mr.address() + 8).rkey(p.b.mr.rkey())
                .sgList(ScatterGatherEntry.of(p.a.mr, 16, 8)));
            List<WorkCompletion> wcs = p.await(p.a.cq, 3);
            for (int i = 0; i < 3; i++) {
                assertEquals(WcStatus.SUCCESS, wcs.get(i).status());
                assertEquals(i + 1, wcs.get(i).wrId());
            }
            ByteBuffer local = p.a.mr.buffer().order(ByteOrder.nativeOrder());
            assertEquals(100, local.getLong(0));
            assertEquals(105, local.getLong(8));
            assertEquals(7, local.getLong(16)); // compare failed: the original comes back, no swap
            assertEquals(7, target.getLong(8));
        }
    }

    @org.junit.jupiter.api.Test
    void inlineDataIsCopiedAtPostTime() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, MR)) {
            byte[] data = fill(p.a, 0, 40, 11);
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED | SendFlags.INLINE)
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, 40)));
            p.a.mr.buffer().put(0, new byte[40]); // overwritten before anything is sent: the copy must win
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, recv.status());
            assertEquals(40, recv.byteLen());
            assertArrayEquals(data, read(p.b, 0, 40));
            org.junit.jupiter.api.Assertions.assertThrows(io.jroce.verbs.InvalidAttributeException.class,
                () -> p.a.qp.postSend(new SendWorkRequest().opcode(WrOpcode.SEND).sendFlags(SendFlags.INLINE)
                    .sgList(ScatterGatherEntry.of(p.a.mr, 0, 65))), "beyond max_inline_data");
            org.junit.jupiter.api.Assertions.assertThrows(io.jroce.verbs.AccessViolationException.class,
                () -> p.a.qp.postSend(new SendWorkRequest().opcode(WrOpcode.SEND).sendFlags(SendFlags.INLINE)
                    .sgList(ScatterGatherEntry.of(p.a.mr, MR - 8, 16))), "inline entries must lie in registered memory");
        }
    }
}
