package io.jroce.tests.verbs;

import java.util.concurrent.TimeUnit;

import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every verbs entry point of the simulated RNIC that takes an object, called with null: each gets
 * the API's typed exception naming the argument (never a bare NullPointerException), and the
 * resource stays usable. The value types' own checks are in {@link NullArgumentsTest}.
 */
class NullVerbsArgumentsTest {
    private RcPair pair;
    private RcConnection c;
    private MemoryRegion mem;

    @BeforeEach
    void open() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_1024);
        mem = pair.a().allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.MW_BIND);
        c = pair.connect(new RcConnection.Options());
    }

    @AfterEach
    void close() {
        pair.close();
    }

    private static void refused(String expectedMessage, Executable call) {
        InvalidAttributeException e = assertThrows(InvalidAttributeException.class, call);
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void queuePairCallsNameTheNullArgument() {
        QueuePair qp = c.qpA;
        refused("send work request is null", () -> qp.postSend(null));
        refused("receive work request is null", () -> qp.postRecv(null));
        refused("qp_attr is null", () -> qp.modify(null));
        refused("memory window is null",
            () -> qp.bindMemoryWindow(null, mem, mem.address(), 64, AccessFlags.REMOTE_READ, 1, true));
    }

    @Test
    void anSgeNulledAfterSgListWasSetIsCaughtWhenPosted() {
        ScatterGatherEntry[] sges = {ScatterGatherEntry.of(mem, 0, 8), ScatterGatherEntry.of(mem, 8, 8)};
        SendWorkRequest send = new SendWorkRequest().opcode(WrOpcode.SEND).sgList(sges);
        ReceiveWorkRequest recv = new ReceiveWorkRequest().sgList(sges);
        sges[1] = null; // the list is not copied: the caller may change it before posting
        refused("sg_list[1] is null", () -> c.qpA.postSend(send));
        refused("sg_list[1] is null", () -> c.qpA.postRecv(recv));
        SharedReceiveQueue srq = pair.a().own(pair.a().pd().createSrq(4, 2));
        refused("sg_list[1] is null", () -> srq.postRecv(recv));
        refused("receive work request is null", () -> srq.postRecv(null));
        assertEquals(0, srq.available(), "nothing was posted");

        sges[1] = ScatterGatherEntry.of(mem, 8, 8);
        c.qpA.postRecv(recv); // the queue is unharmed: the same request posts once repaired
        srq.postRecv(recv);
        assertEquals(1, srq.available());
    }

    @Test
    void completionQueueCallsNameTheNullArgument() throws InterruptedException {
        CompletionQueue cq = c.sendCqA;
        refused("completion array is null", () -> cq.poll((WorkCompletion[]) null));
        refused("completion is null", () -> cq.poll((WorkCompletion) null));
        refused("completion is null", () -> cq.pollBlocking(null, 1, TimeUnit.MILLISECONDS));
        refused("time unit is null", () -> cq.pollBlocking(new WorkCompletion(), 1, null));
        assertEquals(0, cq.poll(new WorkCompletion[4]), "the CQ still polls");
        assertFalse(cq.pollBlocking(new WorkCompletion(), 1, TimeUnit.MILLISECONDS));
    }

    @Test
    void deviceAndDomainCallsNameTheNullArgument() throws InterruptedException {
        RdmaDevice device = pair.a().device();
        ProtectionDomain pd = pair.a().pd();
        refused("qp_init_attr is null", () -> pd.createQp(null));
        refused("buffer is null", () -> pd.registerMemory(null, AccessFlags.LOCAL_WRITE));
        refused("an address handle needs a destination GID (RoCE always uses the GRH)",
            () -> pd.createAddressHandle(null));
        refused("qp_type is null", () -> pd.createQp(new QpInitAttributes().type(null).cq(c.sendCqA)));
        refused("send and receive CQs must be CQs of this device", () -> pd.createQp(new QpInitAttributes()));

        // A CQ without a channel is legal: null means none.
        CompletionQueue plain = pair.a().own(device.createCq(4, null));
        assertNull(plain.channel());
        CompletionChannel ch = pair.a().own(device.createCompletionChannel());
        refused("time unit is null", () -> ch.getEvent(1, null));
        assertNull(ch.getEvent(1, TimeUnit.MILLISECONDS), "the channel still works");
        device.asyncEventListener(null); // legal: no listener
    }

    @Test
    void modifyWithAMaskedNullAttributeNamesIt() {
        QueuePair qp = pair.a().pd().createQp(new QpInitAttributes().type(QpType.RC).cq(c.sendCqA)
            .maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1));
        try {
            refused("qp_state is null", () -> qp.modify(new QpAttributes().state(null)));
            refused("path_mtu is null", () -> qp.modify(new QpAttributes().pathMtu(null)));
            QpAttributes noAv = new QpAttributes().addressVector(null);
            assertTrue(noAv.has(QpAttrMask.AV));
            refused("the address vector needs a destination GID (RoCE always uses the GRH)", () -> qp.modify(noAv));
        } finally {
            qp.close();
        }
    }

    @Test
    void bindMemoryWindowOnADestroyedQpSaysDestroyed() {
        MemoryWindow w = pair.a().own(pair.a().pd().allocMemoryWindow(1));
        QueuePair qp = pair.a().pd().createQp(new QpInitAttributes().type(QpType.RC).cq(c.sendCqA)
            .maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1));
        int qpn = qp.qpNum();
        qp.close();
        ResourceClosedException e = assertThrows(ResourceClosedException.class,
            () -> qp.bindMemoryWindow(w, mem, mem.address(), 64, AccessFlags.REMOTE_READ, 1, true));
        assertEquals("queue pair 0x" + Integer.toHexString(qpn) + " is destroyed", e.getMessage());
        e = assertThrows(ResourceClosedException.class,
            () -> qp.bindMemoryWindow(null, null, 0, 0, 0, 1, true));
        assertEquals("queue pair 0x" + Integer.toHexString(qpn) + " is destroyed", e.getMessage());
    }
}
