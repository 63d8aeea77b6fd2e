package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AccessViolationException;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** Memory windows (type 1 and 2), SEND with invalidate and LOCAL_INV between two RNICs on the fabric. */
class MemoryWindowFabricTest {
    private static final int WINDOW_ACCESS = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private static MemoryRegion bindable(FabricPair p) {
        return p.b.pd.allocateMemory(1 << 14, FabricPair.ACCESS | AccessFlags.MW_BIND);
    }

    private static WorkCompletion write(FabricPair p, long remote, int rkey, int len) {
        p.a.qp.postSend(new SendWorkRequest().wrId(50).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(remote).rkey(rkey).sgList(ScatterGatherEntry.of(p.a.mr, 0, len)));
        return p.await(p.a.cq, 1).get(0);
    }

    @Test
    void aType1WindowOpensOnlyItsRange() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            MemoryRegion mr = bindable(p);
            MemoryWindow mw = p.b.pd.allocMemoryWindow(1);
            int rkey = p.b.qp.bindMemoryWindow(mw, mr, mr.address() + 4096, 4096, WINDOW_ACCESS, 7, true);
            WorkCompletion bound = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, bound.status());
            assertEquals(WcOpcode.BIND_MW, bound.opcode());
            assertEquals(rkey, mw.rkey());
            p.a.mr.buffer().put(0, new byte[] {1, 2, 3, 4});
            assertEquals(WcStatus.SUCCESS, write(p, mr.address() + 4096 + 100, rkey, 4).status());
            byte[] got = new byte[4];
            mr.buffer().get(4096 + 100, got);
            assertArrayEquals(new byte[] {1, 2, 3, 4}, got);
            // Outside the window (though inside the region): remote access error.
            assertEquals(WcStatus.REM_ACCESS_ERR, write(p, mr.address() + 100, rkey, 4).status());
            mw.close();
            mr.close();
        }
    }

    @Test
    void aType2WindowIsInvalidatedBySendWithInvalidate() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            MemoryRegion mr = bindable(p);
            MemoryWindow mw = p.b.pd.allocMemoryWindow(2);
            int rkey = mw.nextRkey();
            p.b.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
                .bindMw(mw, rkey, mr, mr.address(), 8192, WINDOW_ACCESS));
            assertEquals(WcStatus.SUCCESS, p.await(p.b.cq, 1).get(0).status());
            assertEquals(WcStatus.SUCCESS, write(p, mr.address() + 8, rkey, 8).status());
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            p.a.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(rkey)
                .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(p.a.mr, 0, 16)));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, recv.status());
            assertTrue(recv.withInv());
            assertEquals(rkey, recv.invalidatedRkey());
            assertEquals(16, recv.byteLen());
            assertEquals(WcStatus.REM_ACCESS_ERR, write(p, mr.address() + 8, rkey, 8).status(),
                "the invalidated rkey opens nothing");
            mw.close();
            mr.close();
        }
    }

    @Test
    void localInvalidateClosesAType2Window() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            MemoryRegion mr = bindable(p);
            MemoryWindow mw = p.b.pd.allocMemoryWindow(2);
            int rkey = mw.nextRkey();
            p.b.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.BIND_MW)
                .bindMw(mw, rkey, mr, mr.address(), 8192, WINDOW_ACCESS));
            p.b.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.LOCAL_INV).invalidateRkey(rkey)
                .sendFlags(SendFlags.SIGNALED));
            WorkCompletion inv = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, inv.status());
            assertEquals(WcOpcode.LOCAL_INV, inv.opcode());
            p.a.qp.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(mr.address()).rkey(rkey).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            mw.close();
            mr.close();
        }
    }

    @Test
    void aSendInvalidatingAnUnknownRkeyIsAnInvalidRequest() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            p.a.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(p.b.mr.rkey())
                .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(p.a.mr, 0, 16)));
            assertEquals(WcStatus.REM_INV_REQ_ERR, p.await(p.a.cq, 1).get(0).status(),
                "a region registered with ibv_reg_mr cannot be invalidated remotely");
            assertEquals(WcStatus.REM_INV_REQ_ERR, p.await(p.b.cq, 1).get(0).status());
        }
    }

    @Test
    void bindsAreChecked() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            MemoryWindow type1 = p.b.pd.allocMemoryWindow(1);
            MemoryWindow type2 = p.b.pd.allocMemoryWindow(2);
            assertThrows(AccessViolationException.class,
                () -> p.b.qp.bindMemoryWindow(type1, p.b.mr, p.b.mr.address(), 64, WINDOW_ACCESS, 1, true),
                "the region lacks MW_BIND");
            MemoryRegion mr = bindable(p);
            assertThrows(InvalidAttributeException.class,
                () -> p.b.qp.bindMemoryWindow(type2, mr, mr.address(), 64, WINDOW_ACCESS, 1, true),
                "type 2 windows are bound with a BIND_MW work request");
            assertThrows(AccessViolationException.class,
                () -> p.b.qp.bindMemoryWindow(type1, mr, mr.address(), 1 << 20, WINDOW_ACCESS, 1, true),
                "beyond the region");
            assertThrows(InvalidAttributeException.class, () -> p.b.pd.allocMemoryWindow(3));
            type1.close();
            type2.close();
            mr.close();
        }
    }
}
