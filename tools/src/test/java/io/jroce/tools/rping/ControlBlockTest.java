package io.jroce.tools.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The state the CM and CQ threads share: an ended connection is not taken back by a late completion. */
class ControlBlockTest {
    private static ControlBlock block() {
        return new ControlBlock(true, null, null, null);
    }

    @Test
    void aCompletionAfterDisconnectedLeavesItDisconnected() throws InterruptedException {
        ControlBlock cb = block();
        cb.post(TestState.RDMA_READ_ADV);
        cb.post(TestState.DISCONNECTED); // the CM thread: the peer's DREQ
        cb.post(TestState.RDMA_READ_COMPLETE); // the CQ thread: the READ answered just before it
        cb.await();
        cb.await();
        cb.await();
        assertEquals(TestState.DISCONNECTED, cb.state, "each post still wakes the waiting thread, which sees the end");
        cb.moveTo(TestState.RDMA_WRITE_ADV); // a RECV completion likewise
        assertEquals(TestState.DISCONNECTED, cb.state);
    }

    @Test
    void anErrorStaysAnErrorButTheEndsMayFollowEachOther() {
        ControlBlock cb = block();
        cb.post(TestState.ERROR);
        cb.post(TestState.RDMA_WRITE_COMPLETE);
        assertEquals(TestState.ERROR, cb.state);
        cb.post(TestState.DISCONNECTED);
        assertEquals(TestState.DISCONNECTED, cb.state);
        cb.post(TestState.ERROR);
        assertEquals(TestState.ERROR, cb.state);
    }

    @Test
    void beforeTheEndEveryStepIsTaken() {
        ControlBlock cb = block();
        for (TestState s : new TestState[] {TestState.CONNECT_REQUEST, TestState.CONNECTED, TestState.RDMA_READ_ADV,
            TestState.RDMA_READ_COMPLETE, TestState.RDMA_WRITE_ADV, TestState.RDMA_WRITE_COMPLETE}) {
            cb.post(s);
            assertEquals(s, cb.state);
        }
    }
}
