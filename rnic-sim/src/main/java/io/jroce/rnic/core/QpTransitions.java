package io.jroce.rnic.core;

import static io.jroce.verbs.QpAttrMask.ACCESS_FLAGS;
import static io.jroce.verbs.QpAttrMask.ALT_PATH;
import static io.jroce.verbs.QpAttrMask.AV;
import static io.jroce.verbs.QpAttrMask.CUR_STATE;
import static io.jroce.verbs.QpAttrMask.DEST_QPN;
import static io.jroce.verbs.QpAttrMask.EN_SQD_ASYNC_NOTIFY;
import static io.jroce.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static io.jroce.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static io.jroce.verbs.QpAttrMask.MIN_RNR_TIMER;
import static io.jroce.verbs.QpAttrMask.PATH_MIG_STATE;
import static io.jroce.verbs.QpAttrMask.PATH_MTU;
import static io.jroce.verbs.QpAttrMask.PKEY_INDEX;
import static io.jroce.verbs.QpAttrMask.PORT;
import static io.jroce.verbs.QpAttrMask.QKEY;
import static io.jroce.verbs.QpAttrMask.RETRY_CNT;
import static io.jroce.verbs.QpAttrMask.RNR_RETRY;
import static io.jroce.verbs.QpAttrMask.RQ_PSN;
import static io.jroce.verbs.QpAttrMask.SQ_PSN;
import static io.jroce.verbs.QpAttrMask.STATE;
import static io.jroce.verbs.QpAttrMask.TIMEOUT;

import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;

/**
 * Which Modify QP transitions are legal, and which attributes each requires and allows: the table
 * of IBTA Vol. 1 section 11.2.5.2 (Modify Queue Pair Attributes, Table 92), which Linux encodes as
 * qp_state_table for ib_modify_qp_is_ok.
 */
final class QpTransitions {
    private static final int STATES = QpState.values().length;
    private static final int TYPES = QpType.values().length;
    /** [from][to][type] = required mask, or -1 when the transition is illegal. */
    private static final int[][][] REQUIRED = new int[STATES][STATES][TYPES];
    private static final int[][][] OPTIONAL = new int[STATES][STATES][TYPES];

    static {
        for (int[][] a : REQUIRED) {
            for (int[] b : a) {
                java.util.Arrays.fill(b, -1);
            }
        }
        for (QpState s : QpState.values()) {
            // Any state may go to RESET; any but RESET to ERR (IBTA 10.3.1, Figure 124).
            legal(s, QpState.RESET, 0, 0, 0, 0, 0, 0);
            if (s != QpState.RESET) {
                legal(s, QpState.ERR, 0, 0, 0, 0, 0, 0);
            }
        }
        legal(QpState.RESET, QpState.INIT,
            PKEY_INDEX | PORT | ACCESS_FLAGS, 0,
            PKEY_INDEX | PORT | ACCESS_FLAGS, 0,
            PKEY_INDEX | PORT | QKEY, 0);
        legal(QpState.INIT, QpState.INIT,
            0, PKEY_INDEX | PORT | ACCESS_FLAGS,
            0, PKEY_INDEX | PORT | ACCESS_FLAGS,
            0, PKEY_INDEX | PORT | QKEY);
        legal(QpState.INIT, QpState.RTR,
            AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX,
            AV | PATH_MTU | DEST_QPN | RQ_PSN, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX,
            0, PKEY_INDEX | QKEY);
        legal(QpState.RTR, QpState.RTS,
            SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC,
            CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE,
            SQ_PSN, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE,
            SQ_PSN, CUR_STATE | QKEY);
        legal(QpState.RTS, QpState.RTS,
            0, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE | MIN_RNR_TIMER,
            0, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE,
            0, CUR_STATE | QKEY);
        legal(QpState.RTS, QpState.SQD,
            0, EN_SQD_ASYNC_NOTIFY, 0, EN_SQD_ASYNC_NOTIFY, 0, EN_SQD_ASYNC_NOTIFY);
        legal(QpState.SQD, QpState.RTS,
            0, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE,
            0, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE,
            0, CUR_STATE | QKEY);
        legal(QpState.SQD, QpState.SQD,
            0, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC | ALT_PATH
                | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE,
            0, AV | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE,
            0, PKEY_INDEX | QKEY);
        // SQE is entered by the RNIC on a send error of a UC or UD QP, never by an RC QP.
        legal(QpState.SQE, QpState.RTS,
            -1, 0,
            0, CUR_STATE | ACCESS_FLAGS,
            0, CUR_STATE | QKEY);
    }

    private QpTransitions() {
    }

    private static void legal(QpState from, QpState to, int rcReq, int rcOpt, int ucReq, int ucOpt, int udReq, int udOpt) {
        set(from, to, QpType.RC, rcReq, rcOpt);
        set(from, to, QpType.UC, ucReq, ucOpt);
        set(from, to, QpType.UD, udReq, udOpt);
    }

    private static void set(QpState from, QpState to, QpType type, int req, int opt) {
        REQUIRED[from.ordinal()][to.ordinal()][type.ordinal()] = req;
        OPTIONAL[from.ordinal()][to.ordinal()][type.ordinal()] = opt;
    }

    /**
     * Checks a Modify QP call against the table.
     *
     * @throws InvalidStateException     the transition is illegal
     * @throws InvalidAttributeException a required attribute is missing or a given one is not allowed
     */
    static void check(QpType type, QpState from, QpState to, int mask) {
        int req = REQUIRED[from.ordinal()][to.ordinal()][type.ordinal()];
        if (req < 0) {
            throw new InvalidStateException(type + " QP cannot go from " + from + " to " + to
                + " (IBTA Vol. 1 10.3.1, QP state diagram)");
        }
        int allowed = STATE | req | OPTIONAL[from.ordinal()][to.ordinal()][type.ordinal()];
        int missing = req & ~mask;
        if (missing != 0) {
            throw new InvalidAttributeException(type + " QP " + from + "->" + to + " requires "
                + QpAttrMask.describe(missing) + " (IBTA Vol. 1 11.2.5.2)");
        }
        int extra = mask & ~allowed;
        if (extra != 0) {
            throw new InvalidAttributeException(type + " QP " + from + "->" + to + " does not allow "
                + QpAttrMask.describe(extra) + " (IBTA Vol. 1 11.2.5.2)");
        }
    }
}
