package io.jroce.stack.wire;

/** What a packet does, whatever its transport and place in the message. */
public enum Operation {
    SEND(Direction.REQUEST, true),
    RDMA_WRITE(Direction.REQUEST, true),
    RDMA_READ_REQUEST(Direction.REQUEST, false),
    RDMA_READ_RESPONSE(Direction.RESPONSE, true),
    ACKNOWLEDGE(Direction.RESPONSE, false),
    ATOMIC_ACKNOWLEDGE(Direction.RESPONSE, false),
    COMPARE_SWAP(Direction.REQUEST, false),
    FETCH_ADD(Direction.REQUEST, false),
    /** Neither request nor response: a congestion signal to the sender's rate limiter. */
    CNP(Direction.NEITHER, false);

    private enum Direction { REQUEST, RESPONSE, NEITHER }

    private final Direction direction;
    private final boolean payload;

    Operation(Direction direction, boolean payload) {
        this.direction = direction;
        this.payload = payload;
    }

    /** Sent by a requester; handled by the responder. */
    public boolean isRequest() {
        return direction == Direction.REQUEST;
    }

    /** Sent by a responder; handled by the requester's completer. */
    public boolean isResponse() {
        return direction == Direction.RESPONSE;
    }

    /** Packets of this operation may carry a payload after their headers. */
    public boolean hasPayload() {
        return payload;
    }
}
