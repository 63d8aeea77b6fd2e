package io.jroce.tests.interop;

import io.jroce.testcontainers.RxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.time.Duration;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * The host side of an RDMA CM interop test: a jroce device on the host's address on the guests'
 * bridge, an event channel, a PD, a CQ and one local-write region; closed in reverse (region, CQ, PD,
 * channel, device), each even when an earlier one fails. The waits are {@link CmPeerChecks}'.
 */
final class CmHostSide implements AutoCloseable {
    final String address;
    final RdmaDevice dev;
    final RdmaEventChannel ch;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemoryRegion mr;

    private CmHostSide(String address, RdmaDevice dev, int cqDepth, int regionBytes) {
        this.address = address;
        this.dev = dev;
        this.ch = RdmaCm.createEventChannel();
        this.pd = dev.allocPd();
        this.cq = dev.createCq(cqDepth);
        this.mr = pd.allocateMemory(regionBytes, AccessFlags.LOCAL_WRITE);
    }

    /** A device {@code name} on {@code address}, with a CQ of {@code cqDepth} and a region of {@code regionBytes}. */
    static CmHostSide open(String name, String address, int cqDepth, int regionBytes) {
        return on(SoftRnic.builder().name(name).address(address).open(), address, cqDepth, regionBytes);
    }

    /** The side of an open device (the side closes it). */
    static CmHostSide on(RdmaDevice dev, String address, int cqDepth, int regionBytes) {
        try {
            return new CmHostSide(address, dev, cqDepth, regionBytes);
        } catch (RuntimeException e) {
            dev.close();
            throw e;
        }
    }

    /** A listener of {@code space} on this side's address and {@code port}. */
    RdmaCmId listen(PortSpace space, int port, int backlog) {
        return listen(space, new InetSocketAddress(address, port), backlog);
    }

    /** A listener of {@code space} on {@code address} (a wildcard, or this side's). */
    RdmaCmId listen(PortSpace space, InetSocketAddress bind, int backlog) {
        RdmaCmId listener = ch.createId(space);
        listener.bindAddr(bind);
        listener.listen(backlog);
        return listener;
    }

    /** An ID of {@code space} resolved from this side's address to {@code guest:port}, with a QP of {@code init}. */
    RdmaCmId resolved(PortSpace space, String guest, int port, QpInitAttributes init, RxePeer peer)
        throws InterruptedException {
        RdmaCmId id = ch.createId(space);
        id.resolveAddr(new InetSocketAddress(address, 0), new InetSocketAddress(guest, port), 2000);
        expect(RdmaCmEventType.ADDR_RESOLVED, peer);
        id.resolveRoute(2000);
        expect(RdmaCmEventType.ROUTE_RESOLVED, peer);
        id.createQp(pd, init);
        return id;
    }

    /** The passive side's RC QP for {@code conn}, one receive posted into the whole region, and the accept (REP). */
    void acceptWithReceive(RdmaCmId conn) {
        conn.createQp(pd, rcInit());
        conn.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, (int) mr.length())));
        conn.accept(new ConnParam());
    }

    /**
     * rping's first SEND over a connection accepted with {@link #acceptWithReceive}: its buffer's
     * address, rkey and length (struct rping_rdma_info, big-endian, 16 bytes) arrive, and rping prints
     * them with -v -d.
     */
    void awaitRpingInfo(RxePeer peer, Duration within) throws InterruptedException {
        WorkCompletion wc = completion(peer);
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(16, wc.byteLen());
        peer.awaitOutput(String.format("RDMA addr %x rkey %x len %d", mr.buffer().getLong(0), mr.buffer().getInt(8),
            mr.buffer().getInt(12)), within);
    }

    /** An RC QP of 8 work requests each way on the side's CQ. */
    QpInitAttributes rcInit() {
        return new QpInitAttributes().cq(cq).maxSendWr(8).maxRecvWr(8).maxSendSge(1).maxRecvSge(1);
    }

    RdmaCmEvent expect(RdmaCmEventType type, RxePeer peer) throws InterruptedException {
        return CmPeerChecks.expect(ch, type, peer);
    }

    RdmaCmEvent next(RxePeer peer) throws InterruptedException {
        return CmPeerChecks.next(ch, peer);
    }

    WorkCompletion completion(RxePeer peer) throws InterruptedException {
        return CmPeerChecks.completion(cq, peer);
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable c : new AutoCloseable[] {mr, cq, pd, ch, dev}) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
