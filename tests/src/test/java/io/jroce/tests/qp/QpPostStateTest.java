package io.jroce.tests.qp;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Which states allow posting (IBTA Vol. 1 10.3.1, 11.4.1.1): sends from RTS on (not in RESET,
 * INIT or RTR), receives from INIT on (not in RESET). The work requests are otherwise valid, so
 * the state is the only thing wrong with them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QpPostStateTest {
    private QpBench bench;
    private MemoryRegion mr;

    @BeforeAll
    void openDevice() {
        bench = QpBench.open();
        mr = bench.node.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
    }

    @AfterAll
    void closeDevice() {
        if (bench != null) {
            bench.close();
        }
    }

    private SendWorkRequest send() {
        return new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mr, 0, 16));
    }

    private ReceiveWorkRequest recv() {
        return new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(mr, 1024, 64));
    }

    @ParameterizedTest(name = "post_send in {0}")
    @EnumSource(value = QpState.class, names = {"RESET", "INIT", "RTR"})
    void postSendBeforeRtsIsRefused(QpState state) {
        QueuePair qp = bench.qpIn(state);
        try {
            assertThrows(InvalidStateException.class, () -> qp.postSend(send()), "post_send in " + state);
            assertEquals(state, qp.state(), "a refused post does not change the state");
        } finally {
            bench.release(qp);
        }
    }

    @ParameterizedTest(name = "post_recv in {0}")
    @EnumSource(value = QpState.class, names = {"RESET"})
    void postRecvInResetIsRefused(QpState state) {
        QueuePair qp = bench.qpIn(state);
        try {
            assertThrows(InvalidStateException.class, () -> qp.postRecv(recv()), "post_recv in " + state);
            assertEquals(state, qp.state());
        } finally {
            bench.release(qp);
        }
    }

    @ParameterizedTest(name = "post_recv in {0}")
    @EnumSource(value = QpState.class, names = {"INIT", "RTR", "RTS"})
    void postRecvFromInitOnIsAccepted(QpState state) {
        QueuePair qp = bench.qpIn(state);
        try {
            assertDoesNotThrow(() -> qp.postRecv(recv()), "post_recv in " + state);
            assertEquals(state, qp.state());
        } finally {
            bench.release(qp);
        }
    }
}
