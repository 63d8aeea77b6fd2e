package io.jroce.tests.support;

import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;

/**
 * Two RC queue pairs, one on each node, connected to each other the way ibv_rc_pingpong connects
 * them (RESET, INIT, RTR, RTS with the attributes the IBTA table requires). Each side has its own
 * send CQ and receive CQ so that a test can tell the completions apart.
 */
public final class RcConnection implements AutoCloseable {
    /** What to create; the defaults suit the data-path tests. */
    public static final class Options {
        public Mtu pathMtu = Mtu.MTU_1024;
        public int maxSendWr = 64;
        public int maxRecvWr = 64;
        public int maxSge = 4;
        public boolean sqSigAll;
        public int cqEntries = 512;
        /** First PSN A sends (and B expects); near the wrap so that long messages cross 0xffffff. */
        public int psnA = 0xfffe00;
        public int psnB = 0x00ab12;
        public int qpAccess = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        /** Local ACK timeout exponent: 4.096 us * 2^14 = 67 ms, short so that a lost packet is soon resent. */
        public int timeout = 14;
        public int retryCount = 7;
        /** 7 = retry RNR NAKs forever. */
        public int rnrRetry = 7;
        public int minRnrTimer = 1;
        /** The completion channel of A's two CQs, or null for CQs without one. */
        public CompletionChannel channelA;
        /** The completion channel of B's two CQs, or null for CQs without one. */
        public CompletionChannel channelB;

        public Options pathMtu(Mtu m) {
            pathMtu = m;
            return this;
        }

        public Options queueDepth(int sendWr, int recvWr) {
            maxSendWr = sendWr;
            maxRecvWr = recvWr;
            return this;
        }

        public Options sqSigAll(boolean v) {
            sqSigAll = v;
            return this;
        }

        public Options cqEntries(int n) {
            cqEntries = n;
            return this;
        }
    }

    private final Node a;
    private final Node b;
    private final Options options;
    public final CompletionQueue sendCqA;
    public final CompletionQueue recvCqA;
    public final CompletionQueue sendCqB;
    public final CompletionQueue recvCqB;
    public final QueuePair qpA;
    public final QueuePair qpB;

    private RcConnection(Node a, Node b, Options o) {
        this.a = a;
        this.b = b;
        this.options = o;
        sendCqA = a.device().createCq(o.cqEntries, o.channelA);
        recvCqA = a.device().createCq(o.cqEntries, o.channelA);
        sendCqB = b.device().createCq(o.cqEntries, o.channelB);
        recvCqB = b.device().createCq(o.cqEntries, o.channelB);
        qpA = a.pd().createQp(init(o, sendCqA, recvCqA));
        qpB = b.pd().createQp(init(o, sendCqB, recvCqB));
    }

    /** Creates both QPs and brings both to RTS, connected to each other. */
    public static RcConnection connect(Node a, Node b, Options o) {
        RcConnection c = new RcConnection(a, b, o);
        try {
            QpConnector toB = c.connector(a);
            QpConnector toA = c.connector(b);
            toB.toInit(c.qpA);
            toA.toInit(c.qpB);
            toB.toRtr(c.qpA, RemoteQp.of(c.qpB, o.psnB, b.gid(), b.port()));
            toA.toRtr(c.qpB, RemoteQp.of(c.qpA, o.psnA, a.gid(), a.port()));
            toB.toRts(c.qpA, o.psnA);
            toA.toRts(c.qpB, o.psnB);
        } catch (RuntimeException | Error e) {
            try {
                c.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return c;
    }

    private static QpInitAttributes init(Options o, CompletionQueue send, CompletionQueue recv) {
        return new QpInitAttributes().type(QpType.RC).sendCq(send).recvCq(recv)
            .maxSendWr(o.maxSendWr).maxRecvWr(o.maxRecvWr).maxSendSge(o.maxSge).maxRecvSge(o.maxSge)
            .sqSigAll(o.sqSigAll);
    }

    /** The options for the QP on {@code self}: READ/atomic limits as high as its device allows, up to 16. */
    private QpConnector connector(Node self) {
        DeviceAttributes dev = self.device().queryDevice();
        return QpConnector.rc().accessFlags(options.qpAccess).pathMtu(options.pathMtu).sgidIndex(self.gidIndex())
            .maxDestRdAtomic(Math.min(16, dev.maxQpRdAtom())).minRnrTimer(options.minRnrTimer)
            .timeout(options.timeout).retryCount(options.retryCount).rnrRetry(options.rnrRetry)
            .maxRdAtomic(Math.min(16, dev.maxQpInitRdAtom()));
    }

    public Node a() {
        return a;
    }

    public Node b() {
        return b;
    }

    public Options options() {
        return options;
    }

    public int mtuBytes() {
        return options.pathMtu.bytes();
    }

    /** True while both QPs are in RTS: a failed test may have moved them to ERR. */
    public boolean healthy() {
        try {
            return qpA.state() == QpState.RTS && qpB.state() == QpState.RTS;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** QP states and both devices' non-zero counters, for failure messages. */
    public String diagnostics() {
        return "qpA 0x" + Integer.toHexString(qpA.qpNum()) + " " + safeState(qpA) + ", qpB 0x"
            + Integer.toHexString(qpB.qpNum()) + " " + safeState(qpB) + "; counters A " + a.describeCounters()
            + "; counters B " + b.describeCounters();
    }

    private static String safeState(QueuePair qp) {
        try {
            return String.valueOf(qp.state());
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (AutoCloseable r : new AutoCloseable[] {qpA, qpB, sendCqA, recvCqA, sendCqB, recvCqB}) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (io.jroce.verbs.ResourceClosedException already) {
                // closed by the test
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            } catch (Exception e) {
                first = first == null ? new IllegalStateException(e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
