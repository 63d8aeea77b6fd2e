package io.jroce.rnic.cm;

/**
 * The states of a connection (IBTA Vol. 1 12.9.6, figure 161; the kernel's {@code enum ib_cm_state}).
 * A connection starts in REQ_SENT (active) or REQ_RCVD (passive) and leaves the manager after TIMEWAIT,
 * or at once when rejected or timed out before it was established.
 */
public enum CmState {
    /** Not connecting: a rejected or timed-out connection, no longer in the manager. */
    IDLE,
    /** Active: the REQ is sent (and retransmitted) until a REP, REJ or MRA arrives. */
    REQ_SENT,
    /** Passive: a REQ arrived and was reported; the consumer has not answered. */
    REQ_RCVD,
    /** Passive: a repeated REQ was answered with an MRA; the consumer has not answered yet. */
    MRA_REQ_SENT,
    /** Active: the peer's MRA extended the REQ's timer. */
    MRA_REQ_RCVD,
    /** Passive: the REP is sent (and retransmitted) until the RTU arrives. */
    REP_SENT,
    /** Active: a REP arrived and was reported; the consumer has not answered with RTU or REJ. */
    REP_RCVD,
    /** Active: a repeated REP was answered with an MRA; the consumer has not answered yet. */
    MRA_REP_SENT,
    /** Passive: the peer's MRA extended the REP's timer. */
    MRA_REP_RCVD,
    /** The connection is up: RTU sent (active) or received (passive). */
    ESTABLISHED,
    /** A DREQ is sent (and retransmitted) until the DREP arrives. */
    DREQ_SENT,
    /** A DREQ arrived and was reported; the consumer answers with its own disconnect (a DREP). */
    DREQ_RCVD,
    /** Disconnected; waiting for stray packets to die before the IDs may be used again. */
    TIMEWAIT,
    /** Active UD: the SIDR_REQ is sent (and retransmitted) until the SIDR_REP (IBTA 12.11). */
    SIDR_REQ_SENT,
    /** Passive UD: a SIDR_REQ arrived and was reported; the consumer answers with a SIDR_REP. */
    SIDR_REQ_RCVD
}
