package io.jroce.verbs;

/**
 * Brings a queue pair from RESET through INIT and RTR to RTS in one call, with the attributes the
 * IBTA's QP state table (Vol. 1 11.2.5.2, "Modify QP") requires for its type and nothing it
 * forbids: RC takes the path, its responder and requester limits and its timers; UC only the path;
 * UD only a Q_Key. These are the lines every program that connects without RDMA CM writes (see
 * ibv_rc_pingpong's {@code pp_connect_ctx}); the peer's side comes from {@link RemoteQp}.
 *
 * <pre>{@code
 * QpConnector.rc().connect(qp, myPsn, new RemoteQp(peerQpn, peerPsn, peerGid));
 * }</pre>
 *
 * <p>The defaults, each settable: path MTU 1024; P_Key index 0, port 1, source GID index 0;
 * remote access REMOTE_WRITE, REMOTE_READ and REMOTE_ATOMIC; RC: 16 READs/atomics outstanding each
 * way (max_rd_atomic, max_dest_rd_atomic), minimum RNR NAK timer 12 (0.64 ms), local ACK timeout 14
 * (4.096 us x 2^14, about 67 ms: raise it where the peer is slow, see docs/verbs-guide.md), 7
 * retries, 7 RNR retries (7 means without limit). A connector holds options only, is not
 * thread-safe while being set, and may connect any number of QPs afterwards.
 */
public final class QpConnector {
    private final QpType type;
    private int accessFlags = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
    private int qkey;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int sgidIndex;
    private int maxDestRdAtomic = 16;
    private int minRnrTimer = 12;
    private int timeout = 14;
    private int retryCount = 7;
    private int rnrRetry = 7;
    private int maxRdAtomic = 16;

    private QpConnector(QpType type) {
        this.type = type;
    }

    /**
     * For Reliable Connected QPs.
     *
     * @return a connector with the defaults
     */
    public static QpConnector rc() {
        return new QpConnector(QpType.RC);
    }

    /**
     * For Unreliable Connected QPs: no ACKs, so no timers or READ/atomic limits.
     *
     * @return a connector with the defaults
     */
    public static QpConnector uc() {
        return new QpConnector(QpType.UC);
    }

    /**
     * For Unreliable Datagram QPs with {@code qkey}: no peer, so RTR and RTS carry no path.
     *
     * @param qkey the Q_Key the QP receives with and sends with when a work request has none
     * @return a connector with the defaults
     */
    public static QpConnector ud(int qkey) {
        QpConnector c = new QpConnector(QpType.UD);
        c.qkey = qkey;
        return c;
    }

    /**
     * The remote access the QP grants (RC and UC), a bitwise or of {@link AccessFlags}' REMOTE_* values.
     *
     * @param flags the access flags
     * @return this connector
     */
    public QpConnector accessFlags(int flags) {
        accessFlags = flags;
        return this;
    }

    /**
     * The path MTU (RC and UC): at most the active MTU of both ports.
     *
     * @param mtu the path MTU
     * @return this connector
     * @throws InvalidAttributeException {@code mtu} is null
     */
    public QpConnector pathMtu(Mtu mtu) {
        pathMtu = Arguments.notNull(mtu, "path MTU");
        return this;
    }

    /**
     * The local GID (source address) the address vector uses (RC and UC).
     *
     * @param index the index in this device's GID table
     * @return this connector
     */
    public QpConnector sgidIndex(int index) {
        sgidIndex = index;
        return this;
    }

    /**
     * RC: the READs and atomics the QP answers at once (max_dest_rd_atomic).
     *
     * @param n the limit
     * @return this connector
     */
    public QpConnector maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return this;
    }

    /**
     * RC: the RNR NAK timer value the QP sends (IBTA Vol. 1 Table 45, 12 = 0.64 ms).
     *
     * @param value the encoded timer, 0 to 31
     * @return this connector
     */
    public QpConnector minRnrTimer(int value) {
        minRnrTimer = value;
        return this;
    }

    /**
     * RC: the local ACK timeout exponent, 4.096 us x 2^value (0 waits without limit).
     *
     * @param value the exponent, 0 to 31
     * @return this connector
     */
    public QpConnector timeout(int value) {
        timeout = value;
        return this;
    }

    /**
     * RC: how many times a request is retried after a timeout or a sequence error.
     *
     * @param n the retry count, 0 to 7
     * @return this connector
     */
    public QpConnector retryCount(int n) {
        retryCount = n;
        return this;
    }

    /**
     * RC: how many times a request is retried after an RNR NAK; 7 retries without limit.
     *
     * @param n the RNR retry count, 0 to 7
     * @return this connector
     */
    public QpConnector rnrRetry(int n) {
        rnrRetry = n;
        return this;
    }

    /**
     * RC: the READs and atomics the QP has outstanding at most (max_rd_atomic).
     *
     * @param n the limit
     * @return this connector
     */
    public QpConnector maxRdAtomic(int n) {
        maxRdAtomic = n;
        return this;
    }

    /**
     * RC: sets both READ/atomic limits.
     *
     * @param n the limit each way
     * @return this connector
     */
    public QpConnector rdAtomic(int n) {
        return maxRdAtomic(n).maxDestRdAtomic(n);
    }

    /**
     * RC and UC: brings {@code qp} from RESET to RTS towards {@code peer}.
     *
     * @param qp the queue pair, in RESET
     * @param sqPsn the first PSN it sends (24 bits); the peer needs it as its {@code rq_psn}
     * @param peer what the peer told this side
     * @throws InvalidAttributeException a null argument, a QP of another type than this connector's,
     *     or an attribute the device refuses
     * @throws InvalidStateException the QP is not in RESET
     */
    public void connect(QueuePair qp, int sqPsn, RemoteQp peer) {
        if (type == QpType.UD) {
            throw new InvalidAttributeException("a UD QP has no peer to connect to: use activate");
        }
        Arguments.notNull(peer, "peer");
        toInit(qp);
        toRtr(qp, peer);
        toRts(qp, sqPsn);
    }

    /**
     * UD: brings {@code qp} from RESET to RTS.
     *
     * @param qp the queue pair, in RESET
     * @param sqPsn the first PSN its sends carry
     * @throws InvalidAttributeException a null QP, or a connector not made by {@link #ud(int)}
     * @throws InvalidStateException the QP is not in RESET
     */
    public void activate(QueuePair qp, int sqPsn) {
        if (type != QpType.UD) {
            throw new InvalidAttributeException("an " + type + " QP connects to a peer: use connect");
        }
        toInit(qp);
        toRtr(qp, null);
        toRts(qp, sqPsn);
    }

    /**
     * RESET to INIT: P_Key index 0, port 1, and the access flags (RC, UC) or the Q_Key (UD).
     *
     * @param qp the queue pair, in RESET
     * @throws InvalidAttributeException a null QP, or one of another type than this connector's
     */
    public void toInit(QueuePair qp) {
        Arguments.notNull(qp, "queue pair");
        if (qp.type() != type) {
            throw new InvalidAttributeException("a " + type + " connector cannot bring a " + qp.type() + " QP up");
        }
        QpAttributes a = new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1);
        qp.modify(type == QpType.UD ? a.qkey(qkey) : a.accessFlags(accessFlags));
        reached(qp, QpState.INIT);
    }

    /**
     * INIT to RTR: the path to {@code peer} and its first PSN (RC, UC); UD passes null, having no peer.
     *
     * @param qp the queue pair, in INIT
     * @param peer the peer, null for UD
     * @throws InvalidAttributeException an RC or UC connector given no peer
     */
    public void toRtr(QueuePair qp, RemoteQp peer) {
        Arguments.notNull(qp, "queue pair");
        QpAttributes a = new QpAttributes().state(QpState.RTR);
        if (type != QpType.UD) {
            Arguments.notNull(peer, "peer");
            a.pathMtu(pathMtu).destQpNum(peer.qpn()).rqPsn(peer.psn())
                .addressVector(new AddressVector().destGid(peer.gid()).sgidIndex(sgidIndex).udpPort(peer.udpPort()));
        }
        if (type == QpType.RC) {
            a.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer);
        }
        qp.modify(a);
        reached(qp, QpState.RTR);
    }

    /**
     * RTR to RTS: the first PSN it sends, and for RC its timers and READ/atomic limit.
     *
     * @param qp the queue pair, in RTR
     * @param sqPsn the first PSN it sends
     */
    public void toRts(QueuePair qp, int sqPsn) {
        Arguments.notNull(qp, "queue pair");
        QpAttributes a = new QpAttributes().state(QpState.RTS).sqPsn(sqPsn);
        if (type == QpType.RC) {
            a.timeout(timeout).retryCount(retryCount).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
        }
        qp.modify(a);
        reached(qp, QpState.RTS);
    }

    /** A modify that returned without an exception reached its state; a QP moved to ERR meanwhile did not. */
    private static void reached(QueuePair qp, QpState state) {
        if (qp.state() != state) {
            throw new InvalidStateException("QP 0x" + Integer.toHexString(qp.qpNum()) + " is in " + qp.state()
                + " after the move to " + state);
        }
    }
}
