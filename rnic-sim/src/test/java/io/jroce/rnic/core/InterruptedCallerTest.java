package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread whose interrupt is set (a cancelled task tearing down) still gets every verb done, and
 * keeps its interrupt: before, the event-loop mode's wait for the I/O thread gave up at the
 * interrupt, a destroyed QP then kept its PD and CQ, and its device could never close; it stayed
 * bound and registered with the RDMA CM, and took the address of every later device of the JVM.
 */
class InterruptedCallerTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static int freePort() throws Exception {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return probe.getLocalPort();
        }
    }

    private static RdmaDevice open(ProgressMode mode, int port) {
        return SoftRnic.builder().name("interrupted").address("127.0.0.1").udpPort(port).progressMode(mode).open();
    }

    /** The teardown of a cancelled run: everything closes, the device last, and its port is free again. */
    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aTeardownAfterAnInterruptClosesTheDeviceAndFreesItsPort(ProgressMode mode) throws Exception {
        int port = freePort();
        RdmaDevice device = open(mode, port);
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(8);
        QueuePair qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4));
        MemoryRegion mr = pd.allocateMemory(4096, ACCESS);

        Thread.currentThread().interrupt();
        mr.close();
        qp.close();
        cq.close();
        pd.close(); // refused before: the QP destroyed half way still counted on its PD
        device.close();
        assertTrue(Thread.currentThread().isInterrupted(), "the closes keep the caller's interrupt");

        Thread.interrupted();
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress("127.0.0.1", port))) {
            assertEquals(port, again.getLocalPort(), "the closed device gave its port back");
        }
    }

    /** Creating and modifying: each verb takes effect, none fails for the interrupt. */
    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void theVerbsOfAnInterruptedThreadTakeEffect(ProgressMode mode) throws Exception {
        try (RdmaDevice device = open(mode, freePort())) {
            Thread.currentThread().interrupt();
            try (ProtectionDomain pd = device.allocPd();
                 CompletionQueue cq = device.createCq(8);
                 QueuePair qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4))) {
                qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).accessFlags(ACCESS));
                assertEquals(QpState.INIT, qp.query().state());
                assertTrue(Thread.currentThread().isInterrupted(), "the verbs keep the caller's interrupt");
            }
        }
    }
}
