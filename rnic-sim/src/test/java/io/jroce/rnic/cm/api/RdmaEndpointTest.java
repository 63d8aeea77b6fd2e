package io.jroce.rnic.cm.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessViolationException;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.AddressResolutionException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.ConnectionRejectedException;
import io.jroce.verbs.cm.ConnectionTimeoutException;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmException;
import io.jroce.verbs.cm.RdmaEndpoint;

/**
 * librdmacm's convenience layer between two UDP devices on one host (127.0.0.1 and 127.0.0.2 on one
 * free port): the synchronous calls, the data helpers with the bytes they move, and each failure as
 * its typed exception. The class-wide timeout guards against a hang, which is what is under test.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RdmaEndpointTest {
    private static final String SERVER = "127.0.0.1";
    private static final String CLIENT = "127.0.0.2";
    private static final String PORT = "7471";

    private final int udpPort = freePort();
    private final RdmaDevice serverDev = SoftRnic.builder().name("ep-srv").address(SERVER).udpPort(udpPort).open();
    private final RdmaDevice clientDev = SoftRnic.builder().name("ep-cli").address(CLIENT).udpPort(udpPort).open();
    /** Closed after each test in reverse order, so that a failed test still frees its devices. */
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        serverDev.close(); // refused if an endpoint left its PD, CQs or QP behind
        clientDev.close();
    }

    private static int freePort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(SERVER))) {
            return s.getLocalPort();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private <T extends AutoCloseable> T closing(T resource) {
        resources.add(resource);
        return resource;
    }

    private static QpInitAttributes qp() {
        return new QpInitAttributes().maxSendWr(4).maxRecvWr(4);
    }

    private RdmaEndpoint listener() {
        RdmaEndpoint l = closing(RdmaCm.createEp(RdmaCm.getAddrInfo(SERVER, PORT,
            new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE | RdmaAddrInfo.RAI_NUMERICHOST)), null, qp()));
        l.listen(4);
        return l;
    }

    private RdmaEndpoint client(String port) {
        return closing(RdmaCm.createEp(RdmaCm.getAddrInfo(SERVER, port,
            new RdmaAddrInfo().srcAddress(new InetSocketAddress(CLIENT, 0))), null, qp()));
    }

    private static void put(MemoryRegion mr, int offset, String text) {
        mr.buffer().put(offset, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(MemoryRegion mr, int offset, int length) {
        byte[] b = new byte[length];
        mr.buffer().get(offset, b);
        return new String(b, StandardCharsets.US_ASCII);
    }

    private static WorkCompletion ok(WorkCompletion wc) {
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        return wc;
    }

    @Test
    void connectMovesSendWriteReadAndDisconnects() throws Exception {
        RdmaEndpoint listener = listener();
        assertNull(listener.qp(), "a listener has no QP");
        assertSame(serverDev, listener.device());
        // on the device's PD, which the listener and the endpoints of its requests share
        MemoryRegion msgs = closing(listener.regMsgs(ByteBuffer.allocateDirect(64)));
        CompletableFuture<RdmaEndpoint> accepted = CompletableFuture.supplyAsync(() -> {
            RdmaEndpoint conn = listener.getRequest();
            conn.postRecv(10, msgs, 0, 64);
            conn.accept(new ConnParam());
            return conn;
        });
        RdmaEndpoint ep = client(PORT);
        assertEquals(QpState.INIT, ep.qp().state(), "rdma_create_ep creates the QP in INIT");
        assertSame(clientDev, ep.device());
        ep.connect();
        assertEquals(QpState.RTS, ep.qp().state());
        RdmaEndpoint conn = closing(accepted.get(30, TimeUnit.SECONDS));
        assertEquals(QpState.RTS, conn.qp().state());
        assertEquals(new InetSocketAddress(SERVER, 7471), conn.localAddress());
        assertEquals(ep.localAddress(), conn.peerAddress());
        assertSame(serverDev, conn.pd().device());

        MemoryRegion mine = closing(ep.regMsgs(ByteBuffer.allocateDirect(64)));
        MemoryRegion target = closing(conn.regWrite(ByteBuffer.allocateDirect(64)));
        MemoryRegion source = closing(conn.regRead(ByteBuffer.allocateDirect(64)));
        WorkCompletion wc = new WorkCompletion();

        // SEND, into the receive the server posted before accepting
        put(mine, 0, "sent by SEND");
        ep.postSend(1, mine, 0, 12, SendFlags.SIGNALED);
        assertEquals(1, ok(ep.getSendComp(wc)).wrId());
        ok(conn.getRecvComp(wc));
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(10, wc.wrId());
        assertEquals(12, wc.byteLen());
        assertEquals("sent by SEND", text(msgs, 0, 12));
        // RDMA WRITE at offset 8 of the server's target
        put(mine, 16, "written by WRITE");
        ep.postWrite(2, mine, 16, 16, SendFlags.SIGNALED, target.address() + 8, target.rkey());
        assertEquals(WcOpcode.RDMA_WRITE, ok(ep.getSendComp(wc)).opcode());
        assertEquals("written by WRITE", text(target, 8, 16));
        // RDMA READ of the server's source at offset 4
        put(source, 4, "read by READ");
        ep.postRead(3, mine, 40, 12, SendFlags.SIGNALED, source.address() + 4, source.rkey());
        assertEquals(WcOpcode.RDMA_READ, ok(ep.getSendComp(wc)).opcode());
        assertEquals("read by READ", text(mine, 40, 12));
        // WRITE with immediate: consumes a receive at the server
        conn.postRecv(11, target, 32, 0);
        ep.postWriteImm(4, mine, 0, 4, SendFlags.SIGNALED, target.address() + 48, target.rkey(), 0x1234);
        ok(ep.getSendComp(wc));
        ok(conn.getRecvComp(wc));
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, wc.opcode());
        assertEquals(0x1234, wc.immData());
        assertEquals("sent", text(target, 48, 4));

        // The client's DREQ: its disconnect waits for the DREP, which the server sends when its application
        // calls disconnect (as the kernel's CM does); the server learns of the DREQ in its completion wait.
        CompletableFuture<Void> clientSide = CompletableFuture.runAsync(ep::disconnect);
        conn.postRecv(12, msgs, 0, 64);
        RdmaCmException dreq = assertThrows(RdmaCmException.class, () -> conn.getRecvComp(new WorkCompletion()));
        assertEquals(RdmaCmEventType.DISCONNECTED, dreq.event());
        conn.disconnect(); // the DREQ came first: the DREP, at once
        clientSide.get(30, TimeUnit.SECONDS);
        assertEquals(QpState.ERR, ep.qp().state());
        assertEquals(QpState.ERR, conn.qp().state());
        assertThrows(InvalidStateException.class, ep::disconnect);
    }

    @Test
    void endpointsShareTheDevicePdAndTheLastCloseFreesIt() throws Exception {
        RdmaEndpoint listener = listener();
        CompletableFuture<RdmaEndpoint> accepted = CompletableFuture.supplyAsync(() -> {
            RdmaEndpoint conn = listener.getRequest();
            conn.accept();
            return conn;
        });
        RdmaEndpoint ep = client(PORT);
        ep.connect();
        RdmaEndpoint conn = accepted.get(30, TimeUnit.SECONDS);
        assertSame(listener.pd(), conn.pd(), "librdmacm's per-device PD");
        MemoryRegion mr = conn.regMsgs(ByteBuffer.allocateDirect(16));
        CompletableFuture<Void> clientSide = CompletableFuture.runAsync(ep::disconnect);
        conn.disconnect(); // a DREQ or, if the client's came first, the DREP
        clientSide.get(30, TimeUnit.SECONDS);
        conn.close(); // the listener still holds the PD
        ResourceBusyException busy = assertThrows(ResourceBusyException.class, listener::close,
            "the last endpoint of the device, but its region is open");
        assertTrue(busy.getMessage().contains("close the regions first"), busy.getMessage());
        mr.close();
        // The PD stayed: the next endpoint takes it, and its close frees it (the device then closes).
        RdmaEndpoint again = RdmaCm.createEp(RdmaCm.getAddrInfo(SERVER, PORT,
            new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE)), null, null);
        assertSame(conn.pd(), again.pd());
        again.close();
    }

    @Test
    void aPortNobodyListensOnIsRejectedWithReason8() {
        RdmaEndpoint ep = client("7472");
        ConnectionRejectedException e = assertThrows(ConnectionRejectedException.class, ep::connect);
        assertEquals(8, e.reason());
        assertEquals(RdmaCmEventType.REJECTED, e.event());
        assertTrue(e.getMessage().contains("invalid service ID"), e.getMessage());
    }

    @Test
    void aServerRejectIsReason28() throws Exception {
        RdmaEndpoint listener = listener();
        CompletableFuture<Void> rejected = CompletableFuture.runAsync(() -> {
            try (RdmaEndpoint conn = listener.getRequest()) {
                conn.reject(new byte[] {1, 2, 3});
            }
        });
        RdmaEndpoint ep = client(PORT);
        ConnectionRejectedException e = assertThrows(ConnectionRejectedException.class, ep::connect);
        assertEquals(ConnectionRejectedException.CONSUMER_DEFINED, e.reason());
        rejected.get(30, TimeUnit.SECONDS);
    }

    @Test
    void waitsEndAtTheirTimeoutNamingWhatWasAwaited() {
        RdmaEndpoint listener = listener().timeout(Duration.ofMillis(200));
        ConnectionTimeoutException e = assertThrows(ConnectionTimeoutException.class, listener::getRequest);
        assertNull(e.event(), "no event came");
        assertEquals(200, e.timeoutMs());
        assertTrue(e.getMessage().contains("CONNECT_REQUEST"), e.getMessage());

        // No device answers at 127.0.0.3: the REQ is retried for 98 s; the endpoint's bound ends the call.
        RdmaEndpoint lost = closing(RdmaCm.createEp(RdmaCm.getAddrInfo("127.0.0.3", PORT,
            new RdmaAddrInfo().srcAddress(new InetSocketAddress(CLIENT, 0))), null, qp()));
        lost.timeout(Duration.ofMillis(300));
        ConnectionTimeoutException c = assertThrows(ConnectionTimeoutException.class, lost::connect);
        assertTrue(c.getMessage().startsWith("rdma_connect"), c.getMessage());
    }

    @Test
    void aPeerDisconnectEndsACompletionWait() throws Exception {
        RdmaEndpoint listener = listener();
        CompletableFuture<RdmaCmException> waiting = CompletableFuture.supplyAsync(() -> {
            try (RdmaEndpoint conn = listener.getRequest();
                 MemoryRegion mr = conn.regMsgs(ByteBuffer.allocateDirect(16))) {
                conn.postRecv(1, mr, 0, 16);
                conn.accept();
                RdmaCmException e = assertThrows(RdmaCmException.class, () -> conn.getRecvComp(new WorkCompletion()));
                conn.disconnect(); // the DREP
                return e;
            }
        });
        RdmaEndpoint ep = client(PORT);
        ep.connect();
        ep.disconnect();
        RdmaCmException e = waiting.get(30, TimeUnit.SECONDS);
        assertEquals(RdmaCmEventType.DISCONNECTED, e.event(), e.getMessage());
    }

    @Test
    void theDataHelpersAllocateNothing() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        RdmaEndpoint ep = closing(RdmaCm.createEp(RdmaCm.getAddrInfo(SERVER, PORT,
            new RdmaAddrInfo().srcAddress(new InetSocketAddress(CLIENT, 0))), null,
            new QpInitAttributes().maxSendWr(4).maxRecvWr(4000)));
        MemoryRegion mr = closing(ep.regMsgs(ByteBuffer.allocateDirect(4096)));
        for (int i = 0; i < 100; i++) {
            ep.postRecv(i, mr, i, 64); // warm up: receives may be posted from INIT on
        }
        // A per-call allocation shows in every window (900 calls x at least 16 bytes); something the
        // JVM does once meanwhile (a class initialised by another test's thread, a deoptimisation)
        // shows in one window only, so the best of three windows is the steady state.
        long best = Long.MAX_VALUE;
        for (int window = 0; window < 3; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 900; i++) {
                ep.postRecv(i, mr, i, 64);
            }
            best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertTrue(best < 1024, best + " bytes allocated for 900 rdma_post_recv calls (the best of three windows)");
    }

    @Test
    void getAddrInfoFollowsItsHints() {
        RdmaAddrInfo passive = RdmaCm.getAddrInfo(SERVER, "7471", new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE));
        assertEquals(new InetSocketAddress(SERVER, 7471), passive.srcAddress());
        assertNull(passive.dstAddress());
        assertEquals(PortSpace.TCP, passive.portSpace());

        RdmaAddrInfo active = RdmaCm.getAddrInfo("::1", null, new RdmaAddrInfo().portSpace(PortSpace.IB));
        assertEquals(new InetSocketAddress("::1", 0), active.dstAddress());
        assertEquals(PortSpace.IB, active.portSpace());

        assertEquals(new InetSocketAddress("127.0.0.1", 9), RdmaCm.getAddrInfo(null, "9", null).dstAddress(),
            "no node: the loopback address");
        assertTrue(RdmaCm.getAddrInfo(null, "9", new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE))
            .srcAddress().getAddress().isAnyLocalAddress(), "no node, passive: the wildcard address");

        assertThrows(AddressResolutionException.class, () -> RdmaCm.getAddrInfo("localhost", "1",
            new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_NUMERICHOST)));
        assertThrows(AddressResolutionException.class, () -> RdmaCm.getAddrInfo(SERVER, "rdma", null));
        assertThrows(AddressResolutionException.class, () -> RdmaCm.getAddrInfo(SERVER, "65536", null));
        assertThrows(AddressResolutionException.class, () -> RdmaCm.getAddrInfo(null, null, null));
        assertThrows(InvalidAttributeException.class, () -> new RdmaAddrInfo().flags(0x10));
    }

    @Test
    void misuseIsNamed() {
        assertThrows(AddressResolutionException.class, () -> RdmaCm.createEp(RdmaCm.getAddrInfo("127.0.0.9", PORT,
            new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE)), null, null), "no device owns 127.0.0.9");
        assertThrows(InvalidAttributeException.class, () -> RdmaCm.createEp(null, null, null));
        RdmaEndpoint listener = closing(RdmaCm.createEp(RdmaCm.getAddrInfo(SERVER, PORT,
            new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE)), null, qp()));
        assertThrows(InvalidStateException.class, listener::getRequest, "not listening");
        assertThrows(InvalidStateException.class, listener::connect, "no QP");

        RdmaEndpoint ep = client(PORT);
        assertThrows(InvalidStateException.class, () -> ep.listen(1), "an active endpoint");
        assertThrows(InvalidAttributeException.class, () -> ep.postSend(1, null, 0, 1, 0));
        assertThrows(InvalidAttributeException.class, () -> ep.getSendComp(null));
        assertThrows(InvalidAttributeException.class, () -> ep.timeout(Duration.ZERO));
        MemoryRegion mr = closing(ep.regMsgs(ByteBuffer.allocateDirect(16)));
        assertThrows(InvalidStateException.class, () -> ep.postSend(1, mr, 0, 16, 0), "INIT: not connected");
        ep.postRecv(1, mr, 0, 16);
        assertThrows(AccessViolationException.class, () -> ep.postRecv(2, mr, 8, 16), "past the region's end");
        RdmaEndpoint closed = client(PORT);
        closed.close();
        assertThrows(ResourceClosedException.class, () -> closed.postRecv(1, mr, 0, 1));
        assertNotNull(ep.sendCq());
        assertTrue(ep.sendCq() != ep.recvCq(), "one CQ per queue, as rdma_create_qp makes them");
    }
}
