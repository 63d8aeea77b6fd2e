package io.jroce.rnic.core;

import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WrOpcode;

/** Send queue operations the RNIC performs without sending anything: BIND_MW and LOCAL_INV. I/O thread. */
final class LocalOperations {
    private LocalOperations() {
    }

    static WcStatus execute(QpContext qp, SendWqe w, KeyTable keys) {
        return w.opcode == WrOpcode.BIND_MW ? bind(qp, w, keys) : invalidate(qp, w, keys);
    }

    /** IBTA 10.6.7.2: the bind happens when the WQE executes; the region may be gone by then. */
    private static WcStatus bind(QpContext qp, SendWqe w, KeyTable keys) {
        WindowAccess mw = w.bindWindow;
        if (mw.isClosed() || (w.bindLength > 0 && (w.bindRegion.isClosed()
            || keys.lookup(w.bindRegion.lkey()) != w.bindRegion))) {
            return WcStatus.MW_BIND_ERR;
        }
        if (mw.type() == 2 && mw.isBound()) {
            return WcStatus.MW_BIND_ERR; // a bound type 2 window must be invalidated before it is bound again
        }
        mw.bind(w.bindRkey, w.bindRegion, w.bindAddress, w.bindLength, w.bindAccess, qp);
        return WcStatus.SUCCESS;
    }

    /** LOCAL_INV: only a type 2 window of this QP's protection domain can be invalidated (IBTA 10.6.7). */
    private static WcStatus invalidate(QpContext qp, SendWqe w, KeyTable keys) {
        WindowAccess mw = keys.lookupWindow(w.invalidateRkey);
        if (mw == null || mw.type() != 2 || mw.protectionDomain() != qp.pd) {
            return WcStatus.LOC_QP_OP_ERR;
        }
        mw.invalidate();
        return WcStatus.SUCCESS;
    }
}
