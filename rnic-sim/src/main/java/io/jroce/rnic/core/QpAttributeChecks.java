package io.jroce.rnic.core;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;

/** Range checks of Modify QP attribute values (the table in {@link QpTransitions} checks presence). */
final class QpAttributeChecks {
    private static final int PSN_MASK = 0xFFFFFF;

    private QpAttributeChecks() {
    }

    static void check(QpAttributes a, QpState current, int gidCount) {
        if (a.has(QpAttrMask.CUR_STATE) && a.currentState() != current) {
            throw new InvalidAttributeException("cur_qp_state " + a.currentState() + " does not match the QP's state " + current);
        }
        if (a.has(QpAttrMask.STATE) && a.state() == null) {
            throw new InvalidAttributeException("qp_state is null");
        }
        if (a.has(QpAttrMask.ACCESS_FLAGS)
            && (a.accessFlags() & ~(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
                | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND)) != 0) {
            throw new InvalidAttributeException("unknown qp_access_flags bits 0x" + Integer.toHexString(a.accessFlags()));
        }
        if (a.has(QpAttrMask.PKEY_INDEX) && a.pkeyIndex() != 0) {
            throw new InvalidAttributeException("pkey_index must be 0 (the P_Key table holds only the default 0xFFFF), got "
                + a.pkeyIndex());
        }
        if (a.has(QpAttrMask.PORT) && a.portNum() != 1) {
            throw new InvalidAttributeException("port_num must be 1, got " + a.portNum());
        }
        if (a.has(QpAttrMask.QKEY) && a.qkey() < 0) {
            // A Q_Key with its high bit set is a controlled Q_Key (IBTA 10.2.4), such as the GSI's
            // 0x80010000: an application may not hold one, or its UD QP could pass for QP1. Linux
            // refuses it to unprivileged users the same way ("RDMA/uverbs: Restrict usage of
            // privileged QKEYs", 2023). A send WR's controlled Q_Key still means "the QP's own".
            throw new InvalidAttributeException("qkey 0x" + Integer.toHexString(a.qkey())
                + " is a controlled Q_Key (high bit set), reserved to the device's own QPs such as the GSI (QP1)");
        }
        if (a.has(QpAttrMask.PATH_MTU) && a.pathMtu() == null) {
            throw new InvalidAttributeException("path_mtu is null");
        }
        if (a.has(QpAttrMask.AV)) {
            checkAddressVector(a.addressVector(), gidCount);
        }
        range(a, QpAttrMask.TIMEOUT, a.timeout(), 31, "timeout");
        range(a, QpAttrMask.RETRY_CNT, a.retryCount(), 7, "retry_cnt");
        range(a, QpAttrMask.RNR_RETRY, a.rnrRetry(), 7, "rnr_retry");
        range(a, QpAttrMask.MIN_RNR_TIMER, a.minRnrTimer(), 31, "min_rnr_timer");
        range(a, QpAttrMask.RQ_PSN, a.rqPsn(), PSN_MASK, "rq_psn");
        range(a, QpAttrMask.SQ_PSN, a.sqPsn(), PSN_MASK, "sq_psn");
        range(a, QpAttrMask.DEST_QPN, a.destQpNum(), PSN_MASK, "dest_qp_num");
        range(a, QpAttrMask.MAX_QP_RD_ATOMIC, a.maxRdAtomic(), DeviceLimits.MAX_QP_INIT_RD_ATOM, "max_rd_atomic");
        range(a, QpAttrMask.MAX_DEST_RD_ATOMIC, a.maxDestRdAtomic(), DeviceLimits.MAX_QP_RD_ATOM, "max_dest_rd_atomic");
    }

    private static void checkAddressVector(AddressVector av, int gidCount) {
        if (av == null || av.destGid() == null) {
            throw new InvalidAttributeException("the address vector needs a destination GID (RoCE always uses the GRH)");
        }
        if (av.sgidIndex() < 0 || av.sgidIndex() >= gidCount) {
            throw new InvalidAttributeException("sgid_index " + av.sgidIndex() + " is outside the GID table (0.."
                + (gidCount - 1) + ")");
        }
        if (av.hopLimit() < 0 || av.hopLimit() > 255) {
            throw new InvalidAttributeException("hop_limit must be 0..255, got " + av.hopLimit());
        }
        if (av.trafficClass() < 0 || av.trafficClass() > 255) {
            throw new InvalidAttributeException("traffic_class must be 0..255, got " + av.trafficClass());
        }
        if ((av.flowLabel() & ~0xFFFFF) != 0) {
            throw new InvalidAttributeException("flow_label is 20 bits, got 0x" + Integer.toHexString(av.flowLabel()));
        }
        if (av.udpPort() < 1 || av.udpPort() > 65535) {
            throw new InvalidAttributeException("udp port must be 1..65535, got " + av.udpPort());
        }
    }

    private static void range(QpAttributes a, int bit, int value, int max, String name) {
        if (a.has(bit) && (value < 0 || value > max)) {
            throw new InvalidAttributeException(name + " must be 0.." + max + ", got " + value);
        }
    }
}
