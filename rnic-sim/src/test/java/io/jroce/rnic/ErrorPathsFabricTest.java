package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.jroce.stack.wire.Opcode;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** Each RC error path ends in its exact completion status, counter and QP state. */
class ErrorPathsFabricTest {
    private static SendWorkRequest send(FabricPair.Side s, long wrId, int len) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(s.mr, 0, len));
    }

    private static long counter(FabricPair.Side s, String name) {
        return s.device.counters().get(name);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 7})
    void retryExhaustionAfterExactlyRetryCountRetransmissions(int retryCount) {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096, retryCount, 7)) {
            AtomicInteger transmissions = new AtomicInteger();
            p.fabric.fault(d -> {
                if (d.opcode() == Opcode.RC_SEND_ONLY && d.psn() == 0x100) { // WR 1's PSN
                    transmissions.incrementAndGet();
                }
                return false; // the network is down
            });
            p.a.qp.postSend(send(p.a, 1, 100));
            p.a.qp.postSend(send(p.a, 2, 100));
            List<WorkCompletion> wcs = p.await(p.a.cq, 2);
            assertEquals(WcStatus.RETRY_EXC_ERR, wcs.get(0).status());
            assertEquals(1, wcs.get(0).wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(1).status());
            // retry_cnt 7 is seven retries, as IBTA 9.7.6.1.3 says (rxe would retry forever).
            assertEquals(1 + retryCount, transmissions.get(), "the first transmission of WR 1, then its retries");
            assertEquals(1, counter(p.a, "retry_exceeded_err"));
            assertEquals(QpState.ERR, p.a.qp.state());
        }
    }

    @Test
    void rnrRetryExhaustion() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096, 7, 2)) {
            p.a.qp.postSend(send(p.a, 1, 10));
            WorkCompletion wc = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.RNR_RETRY_EXC_ERR, wc.status());
            assertEquals(3, counter(p.b, "send_rnr_err"), "the first try and two retries were RNR NAKed");
            assertEquals(3, counter(p.a, "rcvd_rnr_err"));
            assertEquals(1, counter(p.a, "retry_rnr_exceeded_err"));
            assertEquals(QpState.ERR, p.a.qp.state());
        }
    }

    @Test
    void rnrRetriesUntilAReceiveIsPosted() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096, 7, 7)) {
            p.a.mr.buffer().put(0, (byte) 0x5A);
            p.a.qp.postSend(send(p.a, 1, 10));
            p.fabric.runFor(5_000_000); // min_rnr_timer 12 = 0.64 ms: several RNR NAKs
            long naks = counter(p.b, "send_rnr_err");
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(9).sgList(ScatterGatherEntry.of(p.b.mr, 0, 64)));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            assertEquals(10, recv.byteLen());
            assertEquals(0x5A, p.b.mr.buffer().get(0));
            assertEquals(true, naks >= 3, "RNR NAKs before the receive was posted: " + naks);
        }
    }

    @Test
    void badRkeyIsARemoteAccessError() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey() ^ 0x100).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            assertEquals(QpState.ERR, p.b.qp.state(), "the responder enters ERR too, as rxe's does");
        }
    }

    @Test
    void readWithoutRemoteReadPermissionIsARemoteAccessError() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096)) {
            MemoryRegion writeOnly = p.b.pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(writeOnly.address()).rkey(writeOnly.rkey()).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            writeOnly.close();
        }
    }

    @Test
    void aRegionOfAnotherProtectionDomainIsARemoteAccessError() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096)) {
            ProtectionDomain other = p.b.device.allocPd();
            MemoryRegion foreign = other.allocateMemory(4096, FabricPair.ACCESS);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(foreign.address()).rkey(foreign.rkey()).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            assertEquals(0, foreign.buffer().getLong(0));
            foreign.close();
            other.close();
        }
    }

    @Test
    void aSendLongerThanTheReceiveBufferIsAnInvalidRequest() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096)) {
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(5).sgList(ScatterGatherEntry.of(p.b.mr, 0, 100)));
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(6).sgList(ScatterGatherEntry.of(p.b.mr, 0, 100)));
            p.a.qp.postSend(send(p.a, 1, 101));
            assertEquals(WcStatus.REM_INV_REQ_ERR, p.await(p.a.cq, 1).get(0).status());
            List<WorkCompletion> recv = p.await(p.b.cq, 2);
            assertEquals(WcStatus.LOC_LEN_ERR, recv.get(0).status());
            assertEquals(5, recv.get(0).wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR, recv.get(1).status(), "the responder's QP entered ERR and flushed");
            assertEquals(6, recv.get(1).wrId());
        }
    }

    @Test
    void everyWorkRequestIsFlushedInOrderAfterTheQpEntersError() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 4096)) {
            p.fabric.fault(d -> false);
            for (int i = 0; i < 5; i++) {
                p.a.qp.postSend(send(p.a, i, 10).sendFlags(0)); // unsignaled: flushed ones complete anyway
            }
            p.a.qp.postRecv(new ReceiveWorkRequest().wrId(100).sgList(ScatterGatherEntry.of(p.a.mr, 0, 10)));
            p.a.qp.modify(new io.jroce.verbs.QpAttributes().state(QpState.ERR));
            List<WorkCompletion> wcs = p.await(p.a.cq, 6);
            for (int i = 0; i < 5; i++) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(i).status());
                assertEquals(i, wcs.get(i).wrId());
            }
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(5).status());
            assertEquals(100, wcs.get(5).wrId());
            // Posting in ERR is allowed and completes at once with WR_FLUSH_ERR.
            p.a.qp.postSend(send(p.a, 7, 10));
            WorkCompletion late = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.WR_FLUSH_ERR, late.status());
            assertEquals(7, late.wrId());
            assertEquals(WcOpcode.SEND, late.opcode());
        }
    }
}
