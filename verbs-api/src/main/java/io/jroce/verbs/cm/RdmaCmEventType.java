package io.jroce.verbs.cm;

/** The events of {@code enum rdma_cm_event_type} (rdma_cma.h), in its order. */
public enum RdmaCmEventType {
    /** rdma_resolve_addr found the local device and address. */
    ADDR_RESOLVED,
    /** rdma_resolve_addr failed. */
    ADDR_ERROR,
    /** rdma_resolve_route found the path. */
    ROUTE_RESOLVED,
    /** rdma_resolve_route failed. */
    ROUTE_ERROR,
    /** Passive: a peer asks to connect; the event's ID is new, its listen ID the listener. */
    CONNECT_REQUEST,
    /** Active, reported by the CM to librdmacm on a REP; a jroce ID answers it itself and never delivers it. */
    CONNECT_RESPONSE,
    /** The connection could not be set up here (e.g. the QP could not reach RTR with the peer's values). */
    CONNECT_ERROR,
    /** The REQ, REP or SIDR_REQ went unanswered through every retry, or a SIDR_REP's status was not 0. */
    UNREACHABLE,
    /** The peer rejected the connection; the status is the REJ's reason (IBTA 12.6.7). */
    REJECTED,
    /** The connection is up: RTU sent (active) or received (passive); on a UD ID, the SIDR_REP's success (active only). */
    ESTABLISHED,
    /** A DREQ arrived, or the DREP to this side's DREQ, or the DREQ went unanswered. */
    DISCONNECTED,
    /** The device was removed (closed). */
    DEVICE_REMOVAL,
    /** Multicast, not offered. */
    MULTICAST_JOIN,
    /** Multicast, not offered. */
    MULTICAST_ERROR,
    /** The address changed, not reported by jroce. */
    ADDR_CHANGE,
    /** TimeWait ended: the connection's IDs and QP may be reused. */
    TIMEWAIT_EXIT
}
