package io.jroce.verbs;

/** Transport service types (IBTA Vol. 1 section 9.8): Reliable Connected, Unreliable Connected, Unreliable Datagram. */
public enum QpType {
    /** Reliable Connected: acknowledged, ordered, retransmitted; every operation. */
    RC,
    /** Unreliable Connected: unacknowledged SENDs and RDMA WRITEs between two QPs. */
    UC,
    /** Unreliable Datagram: unacknowledged single-packet SENDs to any UD QP, addressed per request. */
    UD
}
