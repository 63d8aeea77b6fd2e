package io.jroce.rnic.cm;

import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;

/**
 * Counts a device's CM messages by attribute, received and sent ({@code cm_rx_req}, {@code cm_tx_rep},
 * ...), as the kernel's CM counts them per port ({@code cm_rx_msgs} and {@code cm_tx_msgs} in sysfs,
 * cm.c {@code cm_counter_attr}); a retransmission is sent again and counted again. LAP and APR
 * are not handled and not counted here (a received one is counted as {@code cm_drop_bad_mad}).
 */
final class CmMessageCounts {
    private final Counters counters;

    CmMessageCounts(Counters counters) {
        this.counters = counters;
    }

    void received(int attributeId) {
        Counter c = switch (attributeId) {
            case MadHeaderFlyweight.ATTR_REQ -> Counter.CM_RX_REQ;
            case MadHeaderFlyweight.ATTR_MRA -> Counter.CM_RX_MRA;
            case MadHeaderFlyweight.ATTR_REJ -> Counter.CM_RX_REJ;
            case MadHeaderFlyweight.ATTR_REP -> Counter.CM_RX_REP;
            case MadHeaderFlyweight.ATTR_RTU -> Counter.CM_RX_RTU;
            case MadHeaderFlyweight.ATTR_DREQ -> Counter.CM_RX_DREQ;
            case MadHeaderFlyweight.ATTR_DREP -> Counter.CM_RX_DREP;
            case MadHeaderFlyweight.ATTR_SIDR_REQ -> Counter.CM_RX_SIDR_REQ;
            case MadHeaderFlyweight.ATTR_SIDR_REP -> Counter.CM_RX_SIDR_REP;
            default -> null;
        };
        if (c != null) {
            counters.increment(c);
        }
    }

    void sent(int attributeId) {
        Counter c = switch (attributeId) {
            case MadHeaderFlyweight.ATTR_REQ -> Counter.CM_TX_REQ;
            case MadHeaderFlyweight.ATTR_MRA -> Counter.CM_TX_MRA;
            case MadHeaderFlyweight.ATTR_REJ -> Counter.CM_TX_REJ;
            case MadHeaderFlyweight.ATTR_REP -> Counter.CM_TX_REP;
            case MadHeaderFlyweight.ATTR_RTU -> Counter.CM_TX_RTU;
            case MadHeaderFlyweight.ATTR_DREQ -> Counter.CM_TX_DREQ;
            case MadHeaderFlyweight.ATTR_DREP -> Counter.CM_TX_DREP;
            case MadHeaderFlyweight.ATTR_SIDR_REQ -> Counter.CM_TX_SIDR_REQ;
            case MadHeaderFlyweight.ATTR_SIDR_REP -> Counter.CM_TX_SIDR_REP;
            default -> throw new IllegalStateException("the CM sends no attribute 0x" + Integer.toHexString(attributeId));
        };
        counters.increment(c);
    }
}
