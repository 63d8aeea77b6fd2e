package io.jroce.verbs.cm;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code struct rdma_cm_event} (rdma_cma.h): what an {@link RdmaEventChannel} delivers. Each event
 * is acknowledged with {@link #ack()} once read ({@code rdma_ack_cm_event}); an ID with events taken
 * and not acknowledged cannot be closed. Made by the implementation.
 */
public final class RdmaCmEvent {
    private final RdmaCmEventType type;
    private final int status;
    private final RdmaCmId id;
    private final RdmaCmId listenId;
    private final byte[] privateData;
    private final ConnParam connParam;
    private final RdmaUdParam udParam;
    private final Runnable onAck;
    private final AtomicBoolean acked = new AtomicBoolean();

    /**
     * Creates an event without UD parameters (the implementation does).
     *
     * @param type        what happened
     * @param status      0, or the REJ reason for {@link RdmaCmEventType#REJECTED}, or a negative errno
     * @param id          the ID the event is about
     * @param listenId    the listening ID of a {@link RdmaCmEventType#CONNECT_REQUEST}, else null
     * @param privateData the peer's private data (copied), null for none
     * @param connParam   the peer's connection values, or null
     * @param onAck       run once, by the first {@link #ack()}
     */
    public RdmaCmEvent(RdmaCmEventType type, int status, RdmaCmId id, RdmaCmId listenId, byte[] privateData,
                       ConnParam connParam, Runnable onAck) {
        this(type, status, id, listenId, privateData, connParam, null, onAck);
    }

    /**
     * Creates an event (the implementation does).
     *
     * @param type        what happened
     * @param status      0, or the REJ reason for {@link RdmaCmEventType#REJECTED}, or a negative errno
     * @param id          the ID the event is about
     * @param listenId    the listening ID of a {@link RdmaCmEventType#CONNECT_REQUEST}, else null
     * @param privateData the peer's private data (copied), null for none
     * @param connParam   the peer's connection values, or null
     * @param udParam     what an active UD ID's ESTABLISHED and MULTICAST_JOIN carry ({@code param.ud}), else null
     * @param onAck       run once, by the first {@link #ack()}
     */
    public RdmaCmEvent(RdmaCmEventType type, int status, RdmaCmId id, RdmaCmId listenId, byte[] privateData,
                       ConnParam connParam, RdmaUdParam udParam, Runnable onAck) {
        this.udParam = udParam;
        this.type = type;
        this.status = status;
        this.id = id;
        this.listenId = listenId;
        this.privateData = privateData == null ? new byte[0] : privateData.clone();
        this.connParam = connParam;
        this.onAck = onAck;
    }

    /**
     * What happened.
     *
     * @return the event's type
     */
    public RdmaCmEventType type() {
        return type;
    }

    /**
     * 0 on success; for {@link RdmaCmEventType#REJECTED} the REJ's reason (8 no listener, 28 consumer
     * defined, IBTA 12.6.7); for {@link RdmaCmEventType#UNREACHABLE} -110 (ETIMEDOUT), or on a UD ID the
     * SIDR_REP's status (1 no listener, 2 rejected), as the kernel's {@code cma_sidr_rep_handler} reports it.
     *
     * @return the status
     */
    public int status() {
        return status;
    }

    /**
     * The ID the event is about.
     *
     * @return the ID; for {@link RdmaCmEventType#CONNECT_REQUEST}, a new ID to accept or reject
     */
    public RdmaCmId id() {
        return id;
    }

    /**
     * The listening ID a {@link RdmaCmEventType#CONNECT_REQUEST} came to.
     *
     * @return the listener, or null for other events
     */
    public RdmaCmId listenId() {
        return listenId;
    }

    /**
     * The peer's private data (a copy), padded as the message carries it: a REQ's 56 bytes after the
     * RDMA CM header, a REP's 196, a REJ's 148, a SIDR_REQ's 180 after the header, a SIDR_REP's 136;
     * empty when the event carries none.
     *
     * @return a copy of the private data
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * The peer's connection values.
     *
     * @return them for CONNECT_REQUEST and the active side's ESTABLISHED, else null
     */
    public ConnParam connParam() {
        return connParam;
    }

    /**
     * A UD ID's ESTABLISHED (active side): the peer's address, QP and Q_Key from its SIDR_REP
     * ({@code struct rdma_ud_param}); MULTICAST_JOIN and MULTICAST_ERROR: the group's (MGID, QPN
     * 0xFFFFFF, Q_Key 0x01234567); null for other events.
     *
     * @return the UD parameters, or null
     */
    public RdmaUdParam udParam() {
        return udParam;
    }

    /** Acknowledges the event ({@code rdma_ack_cm_event}); later calls do nothing. */
    public void ack() {
        if (acked.compareAndSet(false, true) && onAck != null) {
            onAck.run();
        }
    }

    @Override
    public String toString() {
        return "RdmaCmEvent{" + type + ", status=" + status + "}";
    }
}
