package io.jroce.rnic.cm;

import io.jroce.stack.mad.CmTransactionId;

/**
 * One connection of a {@link ConnectionManager} (the kernel's {@code cm_id_private}): its IDs, its
 * state and its one timer. The manager owns and changes it on the I/O thread; the consumer reads it
 * and hands it back to the manager's methods.
 */
public final class CmConnection {
    /** The timer's meaning: nothing, a message to retransmit, or the end of TimeWait. */
    enum Timer { NONE, RETRANSMIT, TIMEWAIT }

    final boolean active;
    final int localCommId;
    final long serviceId;
    final byte[] localGid;
    final byte[] peerGid;
    final int peerPort;
    /** Whom the connection reports to; nobody once destroyed. */
    CmEvents events;
    int remoteCommId;
    long remoteCaGuid;
    /** The TID this connection's REP, RTU, MRA and REJ carry: the REQ's; a DREP's, the DREQ's. */
    long tid;
    int localQpn;
    int remoteQpn;
    CmState state;
    /** From the REQ: retransmission interval of this side's messages, and how many retries. */
    long intervalNs;
    int maxRetries;
    /** The message the RETRANSMIT timer sends again. */
    final byte[] pending = new byte[io.jroce.rnic.core.Gsi.MAD_LENGTH];
    Timer timer = Timer.NONE;
    long deadlineNs;
    /** The deadline the manager's timer queue holds this connection under, and whether it is queued. */
    long queuedDeadlineNs;
    boolean queued;
    int retriesLeft;

    CmConnection(boolean active, int localCommId, long serviceId, byte[] localGid, byte[] peerGid, int peerPort,
                 CmEvents events) {
        this.active = active;
        this.localCommId = localCommId;
        this.serviceId = serviceId;
        this.localGid = localGid.clone();
        this.peerGid = peerGid.clone();
        this.peerPort = peerPort;
        this.events = events;
    }

    /**
     * Whether this side sent the REQ.
     *
     * @return true on the active side
     */
    public boolean isActive() {
        return active;
    }

    /**
     * This side's communication ID (IBTA 12.6.5 Local Communication ID).
     *
     * @return the local comm ID
     */
    public int localCommId() {
        return localCommId;
    }

    /**
     * The peer's communication ID; 0 until its REP (active) or known from the REQ (passive).
     *
     * @return the remote comm ID, or 0
     */
    public int remoteCommId() {
        return remoteCommId;
    }

    /**
     * The peer's CA GUID, as its REQ or REP carried it.
     *
     * @return the GUID
     */
    public long remoteCaGuid() {
        return remoteCaGuid;
    }

    /**
     * The service ID the REQ or SIDR_REQ asked for.
     *
     * @return the service ID
     */
    public long serviceId() {
        return serviceId;
    }

    /**
     * This side's QP, as the REQ or REP carries it.
     *
     * @return the 24-bit QP number
     */
    public int localQpn() {
        return localQpn;
    }

    /**
     * The peer's QP, from its REQ or REP.
     *
     * @return the 24-bit QP number
     */
    public int remoteQpn() {
        return remoteQpn;
    }

    /**
     * The transaction ID of the REQ (see {@link CmTransactionId}).
     *
     * @return the TID
     */
    public long transactionId() {
        return tid;
    }

    /**
     * Where the connection is in the CM's state machine (IBTA 12.9.6).
     *
     * @return the state
     */
    public CmState state() {
        return state;
    }

    /**
     * This side's GID the connection runs on: where its REQ left from or arrived (16 bytes, a copy).
     *
     * @return a copy of the GID
     */
    public byte[] localGid() {
        return localGid.clone();
    }

    /**
     * The peer's GID (16 bytes, a copy).
     *
     * @return a copy of the GID
     */
    public byte[] peerGid() {
        return peerGid.clone();
    }

    @Override
    public String toString() {
        return "CmConnection[" + (active ? "active" : "passive") + " local=0x" + Integer.toHexString(localCommId)
            + " remote=0x" + Integer.toHexString(remoteCommId) + " " + state + "]";
    }
}
