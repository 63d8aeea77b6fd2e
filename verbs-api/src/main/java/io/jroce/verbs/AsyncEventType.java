package io.jroce.verbs;

/** Asynchronous events (enum ibv_event_type, IBTA Vol. 1 11.6.3) that jroce reports. */
public enum AsyncEventType {
    /** A QP entered the Error state because of a completion error (IBV_EVENT_QP_FATAL). */
    QP_FATAL,
    /** A CQ overflowed: a completion was lost (IBV_EVENT_CQ_ERR). */
    CQ_ERR,
    /** An SRQ's receive queue fell below its limit (IBV_EVENT_SRQ_LIMIT_REACHED). */
    SRQ_LIMIT_REACHED,
    /** The last WQE of a QP attached to an SRQ was consumed after it entered ERR (IBV_EVENT_QP_LAST_WQE_REACHED). */
    QP_LAST_WQE_REACHED,
    /** A QP in SQD has drained its send queue (IBV_EVENT_SQ_DRAINED). */
    SQ_DRAINED,
    /** The port became active (IBV_EVENT_PORT_ACTIVE). */
    PORT_ACTIVE,
    /** The port went down (IBV_EVENT_PORT_ERR). */
    PORT_ERR
}
