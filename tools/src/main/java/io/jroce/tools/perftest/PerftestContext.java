package io.jroce.tools.perftest;

import io.jroce.rnic.Configuration;
import io.jroce.rnic.SoftRnic;
import io.jroce.tools.Closer;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The verbs resources of a run, with the attributes perftest's ctx_init, ctx_qp_create,
 * ctx_modify_qp_to_init and ctx_connect use: one buffer and MR for every QP (mr_per_qp off) of
 * 2 x QPs cache-line-aligned slots of max(size, page) bytes (the first half sends from, the second
 * receives and is what the peer is told to write to or read from), a send CQ of tx_depth x QPs, a
 * receive CQ of rx_depth x QPs for SEND, and the QPs.
 */
final class PerftestContext implements AutoCloseable {
    /** DEF_QKEY. */
    static final int QKEY = 0x11111111;
    /** UD_ADDITION: the GRH a UD receive starts with. */
    static final int GRH = 40;

    private final Closer closer = new Closer();
    private final PerftestParams p;
    private RdmaDevice device;
    private ProtectionDomain pd;
    private MemoryRegion mr;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private final List<QueuePair> qps = new ArrayList<>();
    /** Where each UD QP sends, by QP index; null entries while this side does not send. */
    private UdPeer[] udPeers;
    /** INC(BUFF_SIZE, cache line): the distance between two QPs' receive slots. */
    private long slot;

    private PerftestContext(PerftestParams p) {
        this.p = p;
        this.udPeers = new UdPeer[p.numQps];
    }

    /** Opens the device named by -d on the --bind addresses (ctx_open_device). */
    static PerftestContext open(PerftestParams p) throws PerftestException {
        PerftestContext ctx = new PerftestContext(p);
        PerftestOptions o = p.options;
        // perftest spins on its CQs: the spinning thread does the RNIC's work (the invoker progress
        // mode) unless --progress or -Djroce.progress say otherwise; in the event-loop mode the I/O
        // thread keeps up without sleeping while it spins (-Djroce.busyPoll=false to compare;
        // docs/progress-modes.md, docs/benchmarks.md). Polling without pause, they wake the fallback
        // thread less often than other programs (its window is longer), and their passive side (the
        // server of read_lat) has that thread poll a while before it sleeps.
        SoftRnic.Builder builder = o.device().withProgressDefault(SoftRnic.busyPollingDefault()).builder()
            .busyPoll(Configuration.busyPoll(Configuration.PERFTEST_BUSY_POLL_DEFAULT))
            .invokerFallbackAfter(Math.max(1, Configuration.invokerFallbackAfterUs(
                Configuration.PERFTEST_INVOKER_FALLBACK_AFTER_DEFAULT_US)), TimeUnit.MICROSECONDS)
            .invokerFallbackSpin(Configuration.invokerFallbackSpinUs(
                Configuration.PERFTEST_INVOKER_FALLBACK_SPIN_DEFAULT_US), TimeUnit.MICROSECONDS);
        try {
            ctx.device = ctx.closer.register(builder.open());
        } catch (VerbsException | IllegalArgumentException e) {
            throw new PerftestException(" Couldn't get context for the device (" + e.getMessage() + ")", e);
        }
        return ctx;
    }

    RdmaDevice device() {
        return device;
    }

    /**
     * Sends, after a test's loop, what the device holds for this thread's next call. In the invoker
     * mode the ACK of the peer's last message, built during the loop's last poll, leaves with the
     * thread's next call into the device (docs/progress-modes.md); after the loop the twin goes on
     * to its TCP exchange, and that ACK would wait for the fallback window while the peer waits
     * for it to complete its own last operation. Nothing to do in the event-loop mode.
     */
    void flushAfterLoop() {
        device.progress();
    }

    /**
     * ctx_init with the sizes agreed with the peer: PD, buffer and MR, CQs, QPs in INIT. The
     * buffer is random bytes, zeros for write_lat (which polls it for the peer's counter).
     */
    void init(int cycleBuffer, int cacheLine, PrintStream out) throws PerftestException {
        initResources(cycleBuffer, cacheLine, out);
        try {
            for (int i = 0; i < p.numQps; i++) {
                QueuePair qp = closer.register(pd.createQp(qpInit()));
                qps.add(qp);
                QpAttributes attr = new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1);
                if (p.qpType == QpType.UD) {
                    attr.qkey(QKEY);
                } else {
                    attr.accessFlags(switch (p.verb) {
                        case ATOMIC -> AccessFlags.REMOTE_ATOMIC;
                        case READ -> AccessFlags.REMOTE_READ;
                        case WRITE -> AccessFlags.REMOTE_WRITE;
                        case SEND -> AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE;
                    });
                }
                qp.modify(attr);
            }
        } catch (VerbsException e) {
            throw new PerftestException(" Couldn't create IB resources (" + e.getMessage() + ")", e);
        }
    }

    /**
     * ctx_init without the QPs, as with -R (the RDMA CM creates each on its ID, {@link #addQp}):
     * PD, buffer and MR, CQs.
     */
    void initResources(int cycleBuffer, int cacheLine, PrintStream out) throws PerftestException {
        try {
            pd = closer.register(device.allocPd());
            long buff = Math.max(p.size, cycleBuffer);
            slot = inc(buff, cacheLine);
            long length = slot * 2 * p.numQps + (p.qpType == QpType.UD ? cacheLine : 0);
            int access = AccessFlags.LOCAL_WRITE | switch (p.verb) {
                case WRITE -> AccessFlags.REMOTE_WRITE;
                case READ -> AccessFlags.REMOTE_READ;
                case ATOMIC -> AccessFlags.REMOTE_ATOMIC;
                case SEND -> 0;
            };
            if (length > Integer.MAX_VALUE) {
                throw new PerftestException("Couldn't allocate work buf.");
            }
            mr = closer.register(pd.allocateMemory((int) length, access));
            if (p.tool != PerftestTool.WRITE_LAT) {
                ByteBuffer b = mr.buffer();
                byte[] random = new byte[(int) length];
                ThreadLocalRandom.current().nextBytes(random);
                b.put(0, random);
            }
            sendCq = closer.register(device.createCq(p.txDepth * p.numQps));
            if (p.verb == PerftestTool.Verb.SEND) {
                recvCq = closer.register(device.createCq(p.rxDepth * p.numQps));
            }
            DeviceAttributes attrs = device.queryDevice();
            if (p.inlineSize > attrs.maxInlineData()) {
                out.printf("  Actual inline-size(%d) > requested inline-size(%d)%n", attrs.maxInlineData(),
                    attrs.maxInlineData());
                p.inlineSize = attrs.maxInlineData();
            }
        } catch (VerbsException e) {
            throw new PerftestException(" Couldn't create IB resources (" + e.getMessage() + ")", e);
        } catch (OutOfMemoryError e) {
            throw new PerftestException("Couldn't allocate work buf.", e);
        }
    }

    /** Whether {@link #initResources} ran. */
    boolean hasResources() {
        return pd != null;
    }

    /** ctx_qp_create's attributes: the CQs, tx_depth sends, rx_depth receives, one SGE each, the inline size. */
    QpInitAttributes qpInit() {
        return new QpInitAttributes().type(p.qpType).sendCq(sendCq).recvCq(recvCq != null ? recvCq : sendCq)
            .maxSendWr(p.txDepth).maxSendSge(1).maxRecvWr(p.rxDepth).maxRecvSge(1).maxInlineData(p.inlineSize);
    }

    ProtectionDomain pd() {
        return pd;
    }

    /** A QP the RDMA CM created and connected (-R): the next QP of the test; its ID's owner closes it. */
    void addQp(QueuePair qp) {
        qps.add(qp);
    }

    /** INC: {@code size} rounded up to a multiple of the cache line. */
    static long inc(long size, int cacheLine) {
        return (size + cacheLine - 1) / cacheLine * cacheLine;
    }

    /** set_up_connection: what this side tells the peer about QP {@code i}; PSN random, as lrand48. */
    PerftestDest localDest(int i, Gid gid) {
        return new PerftestDest(device.queryPort().lid(), p.outReads, qps.get(i).qpNum(),
            ThreadLocalRandom.current().nextInt(1 << 24), mr.rkey(), recvAddress(i), gid, 0);
    }

    /** Where QP {@code i} sends from: its slot in the first half (buf[i] = buf + i x BUFF_SIZE). */
    long sendAddress(int i) {
        return mr.address() + i * Math.max(p.size, PerftestComm.PAGE_SIZE);
    }

    /** What the peer writes to / reads from for QP {@code i}: buf + (QPs + i) x BUFF_SIZE. */
    long recvAddress(int i) {
        return mr.address() + (p.numQps + i) * Math.max(p.size, PerftestComm.PAGE_SIZE);
    }

    /** Where QP {@code i}'s receives land (ctx_set_recv_wqes): buf + (QPs + i) x slot, after a cache line's room for UD. */
    long recvBufferAddress(int i, int cacheLine) {
        long a = mr.address() + (p.numQps + i) * slot;
        return p.qpType == QpType.UD ? a + cacheLine - GRH : a;
    }

    /**
     * ctx_connect: RTR with the peer's QPN and PSN (RC adds max_dest_rd_atomic = own out_reads and
     * min_rnr_timer 12; UD only the state), RTS with the own PSN (RC adds timeout, retry 7,
     * rnr_retry 7, max_rd_atomic = the peer's out_reads). The server of a one-way BW test stays in
     * RTR. UD senders get an address handle.
     */
    void connect(List<PerftestDest> remote, List<PerftestDest> mine) throws PerftestException {
        boolean sends = !p.tool.bandwidth() || p.client || p.duplex;
        for (int i = 0; i < qps.size(); i++) {
            QueuePair qp = qps.get(i);
            PerftestDest dest = remote.get(i);
            AddressVector av = new AddressVector().destGid(dest.gid()).sgidIndex(p.gidIndex).hopLimit(0xFF)
                .trafficClass(0).serviceLevel(p.options.sl()).udpPort(p.options.device().peerUdpPort());
            QpAttributes rtr = new QpAttributes().state(QpState.RTR);
            if (p.qpType != QpType.UD) {
                rtr.addressVector(av).pathMtu(p.mtu).destQpNum(dest.qpn()).rqPsn(dest.psn());
                if (p.qpType == QpType.RC) {
                    rtr.maxDestRdAtomic(mine.get(i).outReads()).minRnrTimer(12);
                }
            }
            try {
                qp.modify(rtr);
            } catch (VerbsException e) {
                throw new PerftestException("Failed to modify QP " + qp.qpNum() + " to RTR (" + e.getMessage() + ")"
                    + "\n Unable to Connect the HCA's through the link", e);
            }
            if (!sends) {
                continue;
            }
            QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(mine.get(i).psn());
            if (p.qpType == QpType.RC) {
                rts.timeout(p.options.qpTimeout()).retryCount(7).rnrRetry(7).maxRdAtomic(dest.outReads());
            }
            try {
                qp.modify(rts);
                if (p.qpType == QpType.UD) {
                    udPeer(i, av, dest.qpn(), QKEY);
                }
            } catch (VerbsException e) {
                throw new PerftestException("Failed to modify QP to RTS (" + e.getMessage() + ")"
                    + "\n Unable to Connect the HCA's through the link", e);
            }
        }
    }

    List<QueuePair> qps() {
        return qps;
    }

    /** QP {@code i} (UD) sends to {@code av}, QP {@code qpn} with Q_Key {@code qkey}: its address handle made. */
    void udPeer(int i, AddressVector av, int qpn, int qkey) {
        AddressHandle ah = closer.register(pd.createAddressHandle(av));
        udPeers[i] = new UdPeer(ah, qpn, qkey);
    }

    /** Whether every UD QP knows where to send (this side sends). */
    boolean hasUdPeers() {
        for (UdPeer u : udPeers) {
            if (u == null) {
                return false;
            }
        }
        return udPeers.length > 0;
    }

    /** Where QP {@code i} sends (UD). */
    UdPeer udPeer(int i) {
        return udPeers[i];
    }

    MemoryRegion mr() {
        return mr;
    }

    CompletionQueue sendCq() {
        return sendCq;
    }

    CompletionQueue recvCq() {
        return recvCq;
    }

    @Override
    public void close() {
        closer.close();
    }
}
