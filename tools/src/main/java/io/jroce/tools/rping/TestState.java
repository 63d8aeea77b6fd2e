package io.jroce.tools.rping;

/**
 * rping's {@code enum test_state}: how its CM and CQ threads tell the main thread what happened.
 * The values are rping's, which it prints in "wait for ... state %d".
 */
enum TestState {
    IDLE(1),
    CONNECT_REQUEST(2),
    ADDR_RESOLVED(3),
    ROUTE_RESOLVED(4),
    CONNECTED(5),
    RDMA_READ_ADV(6),
    RDMA_READ_COMPLETE(7),
    RDMA_WRITE_ADV(8),
    RDMA_WRITE_COMPLETE(9),
    DISCONNECTED(10),
    ERROR(11);

    private final int value;

    TestState(int value) {
        this.value = value;
    }

    /** The number rping prints. */
    int value() {
        return value;
    }
}
