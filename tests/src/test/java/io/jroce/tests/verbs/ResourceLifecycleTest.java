package io.jroce.tests.verbs;

import io.jroce.tests.support.Node;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Destroying resources in the wrong order is refused with ResourceBusyException (EBUSY: a PD with
 * MRs or QPs, a CQ a QP uses, a device with PDs or CQs) and leaves the resource usable; once the
 * dependants are gone the close succeeds. Using a destroyed resource throws
 * ResourceClosedException.
 */
class ResourceLifecycleTest {
    private RdmaDevice device;

    @BeforeEach
    void openDevice() {
        device = Node.openDevice("jrocelc", "127.0.0.1", null, null).device();
    }

    @AfterEach
    void closeDevice() {
        // Every test closes what it made; a failed one may leave the device busy.
        try {
            device.close();
        } catch (ResourceBusyException | ResourceClosedException ignored) {
            // reported by the test itself
        }
    }

    private static QpInitAttributes rc(CompletionQueue send, CompletionQueue recv) {
        return new QpInitAttributes().type(QpType.RC).sendCq(send).recvCq(recv).maxSendWr(4).maxRecvWr(4);
    }

    @Test
    void protectionDomainWithAMemoryRegionIsBusy() {
        ProtectionDomain pd = device.allocPd();
        MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
        assertThrows(ResourceBusyException.class, pd::close, "dealloc_pd with an MR");
        MemoryRegion second = assertDoesNotThrow(() -> pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE),
            "the refused close left the PD usable");
        mr.close();
        assertThrows(ResourceBusyException.class, pd::close, "dealloc_pd with one MR left");
        second.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once its MRs are gone");
    }

    @Test
    void protectionDomainWithAQueuePairIsBusy() {
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(16);
        QueuePair qp = pd.createQp(rc(cq, cq));
        assertThrows(ResourceBusyException.class, pd::close, "dealloc_pd with a QP");
        qp.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once its QP is gone");
        cq.close();
    }

    @Test
    void completionQueueUsedByAQueuePairIsBusy() {
        ProtectionDomain pd = device.allocPd();
        CompletionQueue sendCq = device.createCq(16);
        CompletionQueue recvCq = device.createCq(16);
        QueuePair qp = pd.createQp(rc(sendCq, recvCq));
        assertThrows(ResourceBusyException.class, sendCq::close, "destroy_cq of a QP's send CQ");
        assertThrows(ResourceBusyException.class, recvCq::close, "destroy_cq of a QP's recv CQ");
        WorkCompletion wc = new WorkCompletion();
        assertDoesNotThrow(() -> sendCq.poll(wc), "the refused close left the CQ usable");
        qp.close();
        assertDoesNotThrow(sendCq::close, "destroy_cq once the QP is gone");
        assertDoesNotThrow(recvCq::close, "destroy_cq once the QP is gone");
        pd.close();
    }

    @Test
    void deviceWithAProtectionDomainIsBusy() {
        ProtectionDomain pd = device.allocPd();
        assertThrows(ResourceBusyException.class, device::close, "close_device with a PD");
        ProtectionDomain second = assertDoesNotThrow(device::allocPd, "the refused close left the device usable");
        second.close();
        pd.close();
        assertDoesNotThrow(device::close, "close_device once its PDs are gone");
    }

    @Test
    void deviceWithACompletionQueueIsBusy() {
        CompletionQueue cq = device.createCq(16);
        assertThrows(ResourceBusyException.class, device::close, "close_device with a CQ");
        cq.close();
        assertDoesNotThrow(device::close, "close_device once its CQs are gone");
    }

    @Test
    void closedQueuePairCannotBeUsed() {
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(16);
        MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
        QueuePair qp = pd.createQp(rc(cq, cq));
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).accessFlags(0));
        qp.close();
        ScatterGatherEntry sge = ScatterGatherEntry.of(mr, 0, 16);
        assertThrows(ResourceClosedException.class,
            () -> qp.postSend(new SendWorkRequest().opcode(WrOpcode.SEND).sgList(sge)), "post_send on a destroyed QP");
        assertThrows(ResourceClosedException.class,
            () -> qp.postRecv(new ReceiveWorkRequest().sgList(sge)), "post_recv on a destroyed QP");
        assertThrows(ResourceClosedException.class,
            () -> qp.modify(new QpAttributes().state(QpState.RESET)), "modify_qp on a destroyed QP");
        mr.close();
        cq.close();
        pd.close();
    }

    @Test
    void closedProtectionDomainCannotBeUsed() {
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(16);
        pd.close();
        assertThrows(ResourceClosedException.class, () -> pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE),
            "alloc memory in a deallocated PD");
        assertThrows(ResourceClosedException.class,
            () -> pd.registerMemory(ByteBuffer.allocateDirect(4096), AccessFlags.LOCAL_WRITE), "reg_mr in a deallocated PD");
        assertThrows(ResourceClosedException.class, () -> pd.createQp(rc(cq, cq)), "create_qp in a deallocated PD");
        cq.close();
    }

    @Test
    void closedCompletionQueueCannotBeUsed() {
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(16);
        CompletionQueue live = device.createCq(16);
        cq.close();
        assertAll(
            () -> assertThrows(ResourceClosedException.class, () -> cq.poll(new WorkCompletion()),
                "poll_cq on a destroyed CQ"),
            () -> assertThrows(ResourceClosedException.class, () -> pd.createQp(rc(cq, live)),
                "create_qp with a destroyed send CQ"),
            () -> assertThrows(ResourceClosedException.class, () -> pd.createQp(rc(live, cq)),
                "create_qp with a destroyed recv CQ"));
        live.close();
        pd.close();
    }

    @Test
    void closedDeviceCannotBeUsed() {
        device.close();
        assertThrows(ResourceClosedException.class, device::allocPd, "alloc_pd on a closed device");
        assertThrows(ResourceClosedException.class, () -> device.createCq(16), "create_cq on a closed device");
    }

    @Test
    void closedDeviceReleasesItsUdpPortForANewDevice() {
        // Closing must release the socket: a device reopened on the same address and port works.
        Node.Opened first = Node.openDevice("jrocelc1", "127.0.0.1", null, null);
        first.device().close();
        RdmaDevice again = io.jroce.rnic.SoftRnic.builder().name("jrocelc2").address("127.0.0.1")
            .udpPort(first.port()).open();
        again.close();
    }
}
