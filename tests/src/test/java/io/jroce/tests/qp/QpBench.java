package io.jroce.tests.qp;

import io.jroce.tests.support.Node;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One device with a CQ on which the state tests create short-lived RC QPs. The QPs never carry
 * traffic: their address vector points at the device itself and their destination QP number names
 * no QP, so nothing they could send would be accepted anywhere.
 */
final class QpBench implements AutoCloseable {
    /** A destination QP number that no QP of the bench has (QPNs of a device start low). */
    static final int DEST_QPN = 0x0abcde;

    final Node node;
    final CompletionQueue cq;
    final DeviceAttributes dev;

    private QpBench(Node node) {
        this.node = node;
        this.cq = node.createCq(64);
        this.dev = node.device().queryDevice();
    }

    static QpBench open() {
        return new QpBench(Node.open("jroceqp", "127.0.0.1", Mtu.MTU_4096));
    }

    QueuePair newQp() {
        return node.pd().createQp(new QpInitAttributes().type(QpType.RC).cq(cq)
            .maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1));
    }

    /** A new RC QP brought to {@code state} along the usual path; SQE cannot be reached. */
    QueuePair qpIn(QpState state) {
        QueuePair qp = newQp();
        try {
            switch (state) {
                case RESET -> {
                }
                case INIT -> toInit(qp);
                case RTR -> toRtr(qp);
                case RTS -> toRts(qp);
                case SQD -> {
                    toRts(qp);
                    qp.modify(new QpAttributes().state(QpState.SQD));
                }
                case ERR -> {
                    toInit(qp);
                    qp.modify(new QpAttributes().state(QpState.ERR));
                }
                default -> throw new IllegalArgumentException("an RC QP cannot be brought to " + state);
            }
            assertEquals(state, qp.state(), "precondition: QP brought to " + state);
        } catch (RuntimeException | Error e) {
            release(qp);
            throw e;
        }
        return qp;
    }

    void toInit(QueuePair qp) {
        qp.modify(attrs(QpState.INIT, RcTransitionTable.find(QpState.RESET, QpState.INIT).orElseThrow().required(), qp));
    }

    void toRtr(QueuePair qp) {
        toInit(qp);
        qp.modify(attrs(QpState.RTR, RcTransitionTable.find(QpState.INIT, QpState.RTR).orElseThrow().required(), qp));
    }

    void toRts(QueuePair qp) {
        toRtr(qp);
        qp.modify(attrs(QpState.RTS, RcTransitionTable.find(QpState.RTR, QpState.RTS).orElseThrow().required(), qp));
    }

    void release(QueuePair qp) {
        Node.closeQuietly(qp);
    }

    /** A modify request to {@code to} carrying exactly the attributes of {@code mask}, each with a valid value. */
    QpAttributes attrs(QpState to, int mask, QueuePair qp) {
        QpAttributes a = new QpAttributes().state(to);
        for (int bit : RcTransitionTable.bits(mask)) {
            set(a, bit, qp);
        }
        return a;
    }

    /** The same without the STATE bit (a modify that stays in the current state). */
    QpAttributes attrsWithoutState(int mask, QueuePair qp) {
        QpAttributes a = new QpAttributes();
        for (int bit : RcTransitionTable.bits(mask)) {
            set(a, bit, qp);
        }
        return a;
    }

    /** Sets attribute {@code bit} of {@code a} to a value valid for this device. */
    void set(QpAttributes a, int bit, QueuePair qp) {
        switch (bit) {
            case QpAttrMask.CUR_STATE -> a.currentState(qp.state());
            case QpAttrMask.ACCESS_FLAGS -> a.accessFlags(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
            case QpAttrMask.PKEY_INDEX -> a.pkeyIndex(0);
            case QpAttrMask.PORT -> a.portNum(1);
            case QpAttrMask.QKEY -> a.qkey(0x11111111);
            case QpAttrMask.AV -> a.addressVector(node.addressTo(node));
            case QpAttrMask.PATH_MTU -> a.pathMtu(Mtu.MTU_1024);
            case QpAttrMask.TIMEOUT -> a.timeout(14);
            case QpAttrMask.RETRY_CNT -> a.retryCount(7);
            case QpAttrMask.RNR_RETRY -> a.rnrRetry(7);
            case QpAttrMask.RQ_PSN -> a.rqPsn(0x123456);
            case QpAttrMask.MAX_QP_RD_ATOMIC -> a.maxRdAtomic(1);
            case QpAttrMask.MIN_RNR_TIMER -> a.minRnrTimer(12);
            case QpAttrMask.SQ_PSN -> a.sqPsn(0x654321);
            case QpAttrMask.MAX_DEST_RD_ATOMIC -> a.maxDestRdAtomic(1);
            case QpAttrMask.DEST_QPN -> a.destQpNum(DEST_QPN);
            default -> throw new IllegalArgumentException("no setter for " + QpAttrMask.describe(bit));
        }
        assertEquals(bit, a.mask() & bit, "QpAttributes sets the mask bit of " + QpAttrMask.describe(bit));
    }

    @Override
    public void close() {
        node.close();
    }
}
