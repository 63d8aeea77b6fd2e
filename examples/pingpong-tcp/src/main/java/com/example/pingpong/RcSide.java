package com.example.pingpong;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.exchange.PingpongDest;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One side of the ping-pong: a device on its address, an RC QP with a receive posted, and a
 * buffer whose first half receives and second half sends. What it tells its peer is
 * {@link #myDest()}; {@link #connect(PingpongDest)} takes the QP to RTS towards the peer's.
 */
final class RcSide implements AutoCloseable {
    /** The largest message: ibv_rc_pingpong's default size, so its messages fit. */
    static final int MESSAGE = 4096;
    /** RC's attributes, each Modify QP's: path MTU 1024 as ibv_rc_pingpong's default, timeout 14, 7 retries. */
    private static final QpConnector RC = QpConnector.rc();

    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemoryRegion mr;
    private final int psn = ThreadLocalRandom.current().nextInt(1 << 24); // as lrand48() & 0xffffff
    private final int udpPort;

    /**
     * Opens a device on {@code address} and makes the QP.
     *
     * @param address the device's address
     * @param udpPort its RoCE UDP port, and its peer's (4791 between hosts; two devices of one host share one)
     */
    RcSide(String address, int udpPort) {
        this.udpPort = udpPort;
        device = SoftRnic.builder().address(address).udpPort(udpPort).open();
        pd = device.allocPd();
        cq = device.createCq(16);
        qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4));
        mr = pd.allocateMemory(2 * MESSAGE, AccessFlags.LOCAL_WRITE);
        RC.toInit(qp); // receives may be posted from INIT on
        postRecv(); // before the exchange: the peer may send as soon as it has connected
    }

    /** What this side tells its peer: LID 0, its QPN, its first PSN and its device's GID. */
    PingpongDest myDest() {
        return PingpongDest.of(qp, psn, device.gids().get(0));
    }

    /** INIT to RTR towards the peer, then RTS, with QpConnector's defaults. */
    void connect(PingpongDest peer) {
        RC.toRtr(qp, peer.toRemoteQp(udpPort));
        RC.toRts(qp, psn);
    }

    /** SENDs {@code bytes} (at most {@link #MESSAGE}) and waits for its completion. */
    void send(byte[] bytes) throws InterruptedException {
        mr.buffer().put(MESSAGE, bytes);
        qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mr, MESSAGE, bytes.length)));
        await(WcOpcode.SEND);
    }

    /** Waits for the next message, posts the receive of the one after, and returns it. */
    byte[] receive() throws InterruptedException {
        WorkCompletion wc = await(WcOpcode.RECV);
        byte[] got = new byte[wc.byteLen()];
        mr.buffer().get(0, got);
        postRecv();
        return got;
    }

    private void postRecv() {
        qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, MESSAGE)));
    }

    private WorkCompletion await(WcOpcode opcode) throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        if (!cq.pollBlocking(wc, 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no " + opcode + " completion within 30 s");
        }
        if (wc.status() != WcStatus.SUCCESS || wc.opcode() != opcode) {
            throw new IllegalStateException("expected a successful " + opcode + ", got " + wc);
        }
        return wc;
    }

    @Override
    public void close() {
        qp.close();
        mr.close();
        cq.close();
        pd.close();
        device.close();
    }
}
