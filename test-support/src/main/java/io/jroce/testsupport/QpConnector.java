package io.jroce.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;

/**
 * Brings a queue pair from RESET through INIT and RTR to RTS with the attributes the IBTA state
 * table (Vol. 1 11.2.5.2) requires for its type, and nothing it forbids: RC takes responder and
 * requester limits and timers, UC only the path, UD only a Q_Key. It works on verbs objects
 * alone, so the same fixture connects devices on the simulated fabric, over UDP, and to rxe.
 * Each step checks the state it reached.
 *
 * <p>The defaults are what most tests use (path MTU 1024, RNR timer 12 = 0.64 ms, ACK timeout 14 =
 * 67 ms, 7 retries, RNR retries forever, 16 outstanding READs/atomics each way); set what a test is
 * about. A connector holds options only and may connect any number of QPs.
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

    /** Reliable Connected. */
    public static QpConnector rc() {
        return new QpConnector(QpType.RC);
    }

    /** Unreliable Connected: no ACKs, so no timers or READ/atomic limits. */
    public static QpConnector uc() {
        return new QpConnector(QpType.UC);
    }

    /** Unreliable Datagram with {@code qkey}: no peer, RTR and RTS carry no path. */
    public static QpConnector ud(int qkey) {
        QpConnector c = new QpConnector(QpType.UD);
        c.qkey = qkey;
        return c;
    }

    /** The remote access the QP grants (RC and UC), e.g. {@link AccessFlags#REMOTE_WRITE}. */
    public QpConnector accessFlags(int flags) {
        accessFlags = flags;
        return this;
    }

    public QpConnector pathMtu(Mtu mtu) {
        pathMtu = mtu;
        return this;
    }

    /** The local GID (source address) the address vector uses. */
    public QpConnector sgidIndex(int index) {
        sgidIndex = index;
        return this;
    }

    /** RC: the READs and atomics the QP answers at once (max_dest_rd_atomic). */
    public QpConnector maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return this;
    }

    /** RC: the RNR NAK timer value the QP sends (IBTA Table 45). */
    public QpConnector minRnrTimer(int value) {
        minRnrTimer = value;
        return this;
    }

    /** RC: the local ACK timeout exponent, 4.096 us * 2^value. */
    public QpConnector timeout(int value) {
        timeout = value;
        return this;
    }

    public QpConnector retryCount(int n) {
        retryCount = n;
        return this;
    }

    /** RC: 7 retries RNR NAKs forever. */
    public QpConnector rnrRetry(int n) {
        rnrRetry = n;
        return this;
    }

    /** RC: the READs and atomics the QP has outstanding at most (max_rd_atomic). */
    public QpConnector maxRdAtomic(int n) {
        maxRdAtomic = n;
        return this;
    }

    /** Sets both READ/atomic limits. */
    public QpConnector rdAtomic(int n) {
        return maxRdAtomic(n).maxDestRdAtomic(n);
    }

    /** RC and UC: brings {@code qp} to RTS towards {@code peer}; it sends from {@code sqPsn}. */
    public void connect(QueuePair qp, int sqPsn, RemoteQp peer) {
        toInit(qp);
        toRtr(qp, peer);
        toRts(qp, sqPsn);
    }

    /** UD: brings {@code qp} to RTS; its sends start at {@code sqPsn}. */
    public void activate(QueuePair qp, int sqPsn) {
        if (type != QpType.UD) {
            throw new IllegalStateException(type + " QPs connect to a peer: use connect");
        }
        toInit(qp);
        toRtr(qp, null);
        toRts(qp, sqPsn);
    }

    /** RESET to INIT: P_Key index 0, port 1, and the access flags (RC, UC) or the Q_Key (UD). */
    public void toInit(QueuePair qp) {
        assertEquals(type, qp.type(), "a " + type + " connector");
        QpAttributes a = new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1);
        qp.modify(type == QpType.UD ? a.qkey(qkey) : a.accessFlags(accessFlags));
        assertEquals(QpState.INIT, qp.state());
    }

    /** INIT to RTR: the path to {@code peer} and its first PSN (RC, UC; null for UD, which has no peer). */
    public void toRtr(QueuePair qp, RemoteQp peer) {
        QpAttributes a = new QpAttributes().state(QpState.RTR);
        if (type != QpType.UD) {
            a.pathMtu(pathMtu).destQpNum(peer.qpn()).rqPsn(peer.psn())
                .addressVector(new AddressVector().destGid(peer.gid()).sgidIndex(sgidIndex).udpPort(peer.udpPort()));
        }
        if (type == QpType.RC) {
            a.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer);
        }
        qp.modify(a);
        assertEquals(QpState.RTR, qp.state());
    }

    /** RTR to RTS: the first PSN it sends, and for RC its timers and READ/atomic limit. */
    public void toRts(QueuePair qp, int sqPsn) {
        QpAttributes a = new QpAttributes().state(QpState.RTS).sqPsn(sqPsn);
        if (type == QpType.RC) {
            a.timeout(timeout).retryCount(retryCount).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
        }
        qp.modify(a);
        assertEquals(QpState.RTS, qp.state());
    }
}
