package io.jroce.tests.qp;

import io.jroce.verbs.QpState;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
import static io.jroce.verbs.QpAttrMask.TIMEOUT;
import static io.jroce.verbs.QpState.ERR;
import static io.jroce.verbs.QpState.INIT;
import static io.jroce.verbs.QpState.RESET;
import static io.jroce.verbs.QpState.RTR;
import static io.jroce.verbs.QpState.RTS;
import static io.jroce.verbs.QpState.SQD;
import static io.jroce.verbs.QpState.SQE;

/**
 * The Modify QP transitions of an RC QP, with the attributes each requires and each allows
 * besides, as IBTA Vol. 1 11.2.5.2 (the QP state transition table) lists them for the Reliable
 * Connection service and as the Linux kernel encodes them (qp_state_table / ib_modify_qp_is_ok in
 * drivers/infiniband/core/verbs.c), which rxe enforces. A (current, next) pair not listed is
 * illegal. STATE is always allowed; CUR_STATE appears only where the table allows it.
 *
 * <p>Notes on the table:
 * <ul>
 * <li>RESET goes only to RESET or INIT: RESET to ERR is not in the table (nothing to flush).</li>
 * <li>Every other state may go to RESET or to ERR with no attribute at all.</li>
 * <li>No transition leads into SQE: the RNIC enters it on a send error of a UC or UD QP; an RC QP
 *     goes to ERR instead, so an RC QP is never in SQE. The SQE rows are listed for completeness
 *     but cannot be exercised.</li>
 * <li>ALT_PATH, PATH_MIG_STATE and EN_SQD_ASYNC_NOTIFY are allowed by the table, but the jroce API
 *     has no setter for them, so the tests cannot send them.</li>
 * </ul>
 */
final class RcTransitionTable {
    /** A legal transition and its attributes (QpAttrMask bits). */
    record Rule(QpState from, QpState to, int required, int optional) {
        int allowed() {
            return required | optional;
        }

        @Override
        public String toString() {
            return from + "->" + to;
        }
    }

    static final List<Rule> RULES = List.of(
        rule(RESET, RESET, 0, 0),
        rule(RESET, INIT, PKEY_INDEX | PORT | ACCESS_FLAGS, 0),

        rule(INIT, RESET, 0, 0),
        rule(INIT, ERR, 0, 0),
        rule(INIT, INIT, 0, PKEY_INDEX | PORT | ACCESS_FLAGS),
        rule(INIT, RTR, AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER,
            ALT_PATH | ACCESS_FLAGS | PKEY_INDEX),

        rule(RTR, RESET, 0, 0),
        rule(RTR, ERR, 0, 0),
        rule(RTR, RTS, TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC,
            CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE),

        rule(RTS, RESET, 0, 0),
        rule(RTS, ERR, 0, 0),
        rule(RTS, RTS, 0, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE | MIN_RNR_TIMER),
        rule(RTS, SQD, 0, EN_SQD_ASYNC_NOTIFY),

        rule(SQD, RESET, 0, 0),
        rule(SQD, ERR, 0, 0),
        rule(SQD, RTS, 0, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE),
        rule(SQD, SQD, 0, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC
            | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE),

        rule(SQE, RESET, 0, 0),
        rule(SQE, ERR, 0, 0),
        rule(SQE, RTS, 0, CUR_STATE),

        rule(ERR, RESET, 0, 0),
        rule(ERR, ERR, 0, 0));

    /** States an RC QP can be brought to by Modify QP (everything but SQE). */
    static final List<QpState> REACHABLE = List.of(RESET, INIT, RTR, RTS, SQD, ERR);

    /** Every attribute the jroce API can put in a mask, i.e. every bit with a setter in QpAttributes. */
    static final int[] SETTABLE = {CUR_STATE, ACCESS_FLAGS, PKEY_INDEX, PORT, QKEY, AV, PATH_MTU, TIMEOUT,
        RETRY_CNT, RNR_RETRY, RQ_PSN, MAX_QP_RD_ATOMIC, MIN_RNR_TIMER, SQ_PSN, MAX_DEST_RD_ATOMIC, DEST_QPN};

    private RcTransitionTable() {
    }

    private static Rule rule(QpState from, QpState to, int required, int optional) {
        return new Rule(from, to, required, optional);
    }

    static Optional<Rule> find(QpState from, QpState to) {
        return RULES.stream().filter(r -> r.from() == from && r.to() == to).findFirst();
    }

    /** The legal transitions whose current state an RC QP can be brought to. */
    static List<Rule> reachableRules() {
        List<Rule> out = new ArrayList<>();
        for (Rule r : RULES) {
            if (REACHABLE.contains(r.from())) {
                out.add(r);
            }
        }
        return out;
    }

    /** The single bits of {@code mask}. */
    static List<Integer> bits(int mask) {
        List<Integer> out = new ArrayList<>();
        for (int bit = 1; bit != 0; bit <<= 1) {
            if ((mask & bit) != 0) {
                out.add(bit);
            }
        }
        return out;
    }
}
