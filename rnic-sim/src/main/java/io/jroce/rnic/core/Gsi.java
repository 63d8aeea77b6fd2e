package io.jroce.rnic.core;

import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.stack.wire.TransportType;
import io.jroce.verbs.Gid;

/**
 * The device's General Services Interface (IBTA Vol. 1 13.4 and 13.5): QP1, a UD QP that lives
 * from the device's open to its close, sends and receives 256-byte MADs with P_Key 0xFFFF and the
 * well-known Q_Key 0x80010000, and never takes application traffic (QPN 1 is reserved, and no
 * application QP can hold a controlled Q_Key: see {@code SoftQp}). It checks each packet to QP1,
 * drops and counts what is not a MAD the device handles, and hands the rest to the
 * {@link MadHandler}. This class and {@link MadHandler} are the connection manager's seam: the CM
 * sets the handler and sends through {@link #send}; nothing else of the device is open to it.
 */
public final class Gsi {
    /** The GSI's QP number (IBTA 13.5; reserved by {@link QpnAllocator}). */
    public static final int QPN = 1;
    /** The GSI's well-known Q_Key (IBTA 13.5): a controlled Q_Key, its high bit set. */
    public static final int Q_KEY = 0x80010000;
    /** A MAD is exactly 256 bytes (IBTA 13.4; the kernel's MAD size, ib_mad.h). */
    public static final int MAD_LENGTH = 256;
    /** The RoCEv2 destination UDP port, where a MAD to a peer goes unless the peer said otherwise. */
    public static final int ROCE_PORT = 4791;
    /** MAD header (IBTA 13.4.3): BaseVersion is byte 0, MgmtClass byte 1. */
    static final int BASE_VERSION_OFFSET = 0;
    static final int MGMT_CLASS_OFFSET = 1;
    /** The only MAD base version (IBTA 13.4.3). */
    static final int BASE_VERSION = 1;
    /** Communication Management, the only class a jroce device handles (IBTA 13.4 management classes; the CM is chapter 12). */
    public static final int CM_CLASS = 0x07;

    private final IoContext io;
    private final PacketSender sender;
    private final Counters counters;
    private final List<Gid> gids;
    private final UnsafeBuffer madView = new UnsafeBuffer(0, 0);
    private volatile MadHandler handler;
    private volatile CommEstablishedListener commEstablished;
    private int nextPsn;

    Gsi(IoContext io, PacketSender sender, Counters counters, List<Gid> gids) {
        this.io = io;
        this.sender = sender;
        this.counters = counters;
        this.gids = gids;
    }

    /**
     * Sets the handler of received MADs (the CM), or null for none: then MADs are counted and dropped. Any thread.
     *
     * @param h the handler, or null
     */
    public void handler(MadHandler h) {
        this.handler = h;
    }

    /**
     * Sets (or with null clears) who hears of the device's connected QPs receiving their first packet
     * after RTR (IBTA 11.6.3.1 Communication Established): the CM, which establishes a connection
     * still waiting for its RTU. On the GSI because the GSI is the device's one seam to its CM. Any thread.
     *
     * @param l the listener, or null
     */
    public void commEstablishedListener(CommEstablishedListener l) {
        this.commEstablished = l;
    }

    /** Tells the listener that {@code qpn} took its first packet after RTR. I/O thread. */
    void onCommEstablished(int qpn, long nowNs) {
        CommEstablishedListener l = commEstablished;
        if (l != null) {
            l.onCommEstablished(qpn, nowNs);
        }
    }

    /**
     * Sends the {@link #MAD_LENGTH} bytes at {@code offset} of {@code mad} from QP1 of this device's
     * {@code localGid} to QP1 at {@code peerGid}:{@code peerPort}, as a UD SEND Only with BTH P_Key
     * 0xFFFF (the packet sender's default) and DETH Q_Key 0x80010000 and source QP 1. I/O thread only (a handler answering, or a
     * task the CM gave {@link #execute}); the packet leaves at once.
     *
     * @param peerPort the peer's RoCE port: {@link #ROCE_PORT} unless the peer was opened on another; not
     *                 the port a received MAD came from (rxe sends from 0xC000 + a hash of the QPN)
     * @return false when the transport could not send it (counted by the transport)
     * @throws IllegalStateException    off the I/O thread
     * @throws IllegalArgumentException for a buffer shorter than a MAD, a local GID not in the GID
     *                                  table, a GID not of 16 bytes or a port outside 1..65535
     * @param mad the buffer holding the MAD
     * @param offset where the MAD starts in it
     * @param localGid the GID to send from, one of the device's
     * @param peerGid the peer's GID
     */
    public boolean send(DirectBuffer mad, int offset, byte[] localGid, byte[] peerGid, int peerPort) {
        if (!io.inIoThread()) {
            throw new IllegalStateException("the GSI sends on the I/O thread only (use execute)");
        }
        if (offset < 0 || mad.capacity() - offset < MAD_LENGTH) {
            throw new IllegalArgumentException("a MAD is " + MAD_LENGTH + " bytes; the buffer has "
                + (mad.capacity() - offset) + " from offset " + offset);
        }
        if (peerGid.length != Gid.LENGTH || peerPort < 1 || peerPort > 65535) {
            throw new IllegalArgumentException("a peer is a 16-byte GID and a UDP port 1..65535, got "
                + peerGid.length + " bytes and port " + peerPort);
        }
        if (!isLocal(localGid)) {
            throw new IllegalArgumentException("the source GID is not in the GID table of this device");
        }
        RocePacket p = sender.begin(QPN, Opcode.UD_SEND_ONLY, nextPsn, MAD_LENGTH);
        nextPsn = (nextPsn + 1) & 0xFFFFFF; // UD: the PSN is not checked, but moves as a QP's would (IBTA 9.8.3)
        p.deth().qKey(Q_KEY).sourceQp(QPN);
        sender.buffer().putBytes(p.payloadOffset(), mad, offset, MAD_LENGTH);
        boolean sent = sender.send(localGid, peerGid, peerPort);
        if (sent) {
            counters.increment(Counter.SENT_MADS);
        }
        sender.flushIfNeeded(); // MADs are rare: no batch to wait for
        return sent;
    }

    /**
     * The I/O thread's clock, in ns: what {@link MadHandler#onMad} and {@link MadHandler#onTimer} are given.
     *
     * @return the time in nanoseconds
     */
    public long nowNs() {
        return io.nowNs();
    }

    /**
     * The device's counters, where the handler counts the MADs it drops.
     *
     * @return the counters
     */
    public Counters counters() {
        return counters;
    }

    /** Passes the device's timer tick to the handler (its retransmission and TimeWait timers). I/O thread. */
    void onTimer(long nowNs) {
        MadHandler h = handler;
        if (h != null) {
            h.onTimer(nowNs);
        }
    }

    /**
     * Runs {@code task} on the I/O thread, where {@link #send} may be called. Any thread; never blocks.
     *
     * @param task what to run
     */
    public void execute(Runnable task) {
        io.execute(task);
    }

    /**
     * True on the device's I/O thread (in the invoker mode: the thread that owns the device now).
     *
     * @return whether the calling thread owns the device
     */
    public boolean inIoThread() {
        return io.inIoThread();
    }

    private boolean isLocal(byte[] gid) {
        if (gid.length != Gid.LENGTH) {
            return false;
        }
        for (Gid g : gids) {
            if (sameBytes(g, gid)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameBytes(Gid g, byte[] gid) {
        for (int i = 0; i < Gid.LENGTH; i++) {
            if (g.byteAt(i) != gid[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A packet to QP1 that passed the engine's header checks: drops and counts what is not a MAD
     * this device handles, hands the rest to the handler. I/O thread.
     */
    void onPacket(RocePacket p, byte[] src, int srcPort, byte[] dst, long nowNs) {
        if (p.info().transport() != TransportType.UD) {
            counters.increment(Counter.DROP_WRONG_QP_TYPE); // QP1 is a UD QP: no RC or UC opcode reaches it
            return;
        }
        // Taken by QP1, as the engine counts a packet a QP takes; the drops below are QP1's own.
        counters.increment(Counter.RCVD_PKTS);
        counters.add(Counter.RCVD_BYTES, p.payloadLength());
        if (p.bth().opcode() != Opcode.UD_SEND_ONLY) {
            counters.increment(Counter.DROP_BAD_MAD); // a MAD carries no immediate data
            return;
        }
        if (p.deth().qKey() != Q_KEY) {
            counters.increment(Counter.DROP_BAD_QKEY); // the GSI takes only its well-known Q_Key
            return;
        }
        if (p.payloadLength() != MAD_LENGTH) {
            counters.increment(Counter.DROP_BAD_MAD);
            return;
        }
        int mad = p.payloadOffset();
        // Only the first two bytes of the MAD header are the GSI's concern; the rest is the class's.
        if ((p.buffer().getByte(mad + BASE_VERSION_OFFSET) & 0xFF) != BASE_VERSION
            || (p.buffer().getByte(mad + MGMT_CLASS_OFFSET) & 0xFF) != CM_CLASS) {
            counters.increment(Counter.DROP_UNSUPPORTED_MAD);
            return;
        }
        counters.increment(Counter.RCVD_MADS);
        MadHandler h = handler;
        if (h == null) {
            counters.increment(Counter.DROP_NO_MAD_HANDLER);
            return;
        }
        madView.wrap(p.buffer(), mad, MAD_LENGTH);
        // The P_Key was checked by the engine: the table's only entry, 0xFFFF, at index 0.
        h.onMad(madView, src, srcPort, p.deth().sourceQp(), 0, dst, nowNs);
    }
}
