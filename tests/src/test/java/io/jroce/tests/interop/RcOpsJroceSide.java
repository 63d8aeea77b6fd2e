package io.jroce.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * jroce's side of one connection to rc_ops_peer ({@link RcOpsPeerChannel}): an RC QP with a send
 * and a receive CQ, the region it lends the peer ({@code target}, the peer's WRITEs, READs and
 * atomics land there) and a local buffer for its own requests. Shared by the interop tests that
 * drive that peer; each opens one per connection, as an access error moves the QP to ERR.
 */
final class RcOpsJroceSide implements AutoCloseable {
    private static final int WAIT_SECONDS = 60;
    final CompletionQueue scq;
    final CompletionQueue rcq;
    final MemoryRegion target;
    final MemoryRegion local;
    final QueuePair qp;
    /** The peer's buffer, from its QP line: address and rkey. */
    long peerAddr;
    int peerRkey;
    private long wrId;

    /**
     * @param bufBytes     the length of {@code target} and {@code local}
     * @param targetAccess the access of {@code target} (LOCAL_WRITE is added)
     */
    RcOpsJroceSide(RdmaDevice dev, ProtectionDomain pd, int bufBytes, int targetAccess) {
        scq = dev.createCq(64);
        rcq = dev.createCq(64);
        target = pd.allocateMemory(bufBytes, AccessFlags.LOCAL_WRITE | targetAccess);
        local = pd.allocateMemory(bufBytes, AccessFlags.LOCAL_WRITE);
        qp = pd.createQp(new QpInitAttributes().type(QpType.RC).sendCq(scq).recvCq(rcq)
            .maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1));
    }

    /** Trades QP lines with rc_ops_peer (jroce on {@code gid}, lending {@code target}) and connects the QP with {@code connector}. */
    void connect(RcOpsPeerChannel ch, Gid gid, QpConnector connector) throws IOException {
        int psn = new Random().nextInt(1 << 24);
        RcOpsPeerChannel.PeerQp peer = ch.exchangeQp(qp, psn, gid, target);
        peerAddr = peer.address();
        peerRkey = peer.rkey();
        connector.connect(qp, psn, peer.qp());
    }

    /** {@code [off, off + len)} of {@code local}; no entry for a zero-length message. */
    ScatterGatherEntry[] localSge(int off, int len) {
        return len == 0 ? new ScatterGatherEntry[0] : new ScatterGatherEntry[] {ScatterGatherEntry.of(local, off, len)};
    }

    /** Posts a signaled send-queue request and waits for its successful completion. */
    WorkCompletion post(SendWorkRequest wr) throws InterruptedException {
        return post(wr, WcStatus.SUCCESS);
    }

    /** Posts a signaled send-queue request and waits for its completion, which must have {@code expected}. */
    WorkCompletion post(SendWorkRequest wr, WcStatus expected) throws InterruptedException {
        long id = ++wrId;
        qp.postSend(wr.wrId(id).sendFlags(wr.sendFlags() | SendFlags.SIGNALED));
        WorkCompletion wc = new WorkCompletion();
        assertTrue(scq.pollBlocking(wc, WAIT_SECONDS, TimeUnit.SECONDS), "no completion for " + wr.opcode());
        assertEquals(id, wc.wrId(), wc.toString());
        assertEquals(expected, wc.status(), wr.opcode() + ": " + wc);
        return wc;
    }

    /** Waits for the next receive completion, which must be successful. */
    WorkCompletion recv() throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        assertTrue(rcq.pollBlocking(wc, WAIT_SECONDS, TimeUnit.SECONDS), "no receive completion");
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        return wc;
    }

    /** The QP first: a CQ cannot be destroyed while a QP uses it. */
    @Override
    public void close() {
        qp.close();
        local.close();
        target.close();
        scq.close();
        rcq.close();
    }
}
