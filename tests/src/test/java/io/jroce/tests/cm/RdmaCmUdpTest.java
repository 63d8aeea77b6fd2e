package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * Two jroce devices on one host ({@link CmUdpPair}), connected through the RDMA CM API as a librdmacm
 * program would: events are asserted in order, every wait bounded by a generous timeout.
 */
class RdmaCmUdpTest extends CmUdpPair {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    private static final int SERVICE_PORT = 7174;

    RdmaCmUdpTest() {
        super(ACCESS);
    }

    private RdmaCmId listen() {
        return listen(PortSpace.TCP, SERVICE_PORT, 8);
    }

    /** The client side up to ROUTE_RESOLVED with its QP. */
    private RdmaCmId resolvedClient() throws InterruptedException {
        RdmaCmId id = routedClient(PortSpace.TCP, SERVICE_PORT);
        assertSame(clientDev, id.device());
        id.createQp(client.pd, client.qpAttrs());
        assertEquals(QpState.INIT, id.qp().state());
        return id;
    }

    @Test
    void connectTransferAndDisconnect() throws Exception {
        RdmaCmId listener = listen();
        RdmaCmId clientId = resolvedClient();
        byte[] hello = "hello from the client".getBytes(StandardCharsets.US_ASCII);
        clientId.connect(new ConnParam().privateData(hello));

        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listener, req.listenId());
        RdmaCmId serverId = req.id();
        ids.add(serverId);
        assertEquals(56, req.privateData().length, "a REQ's private data after the RDMA CM header, padded");
        assertArrayEquals(hello, Arrays.copyOf(req.privateData(), hello.length));
        assertEquals(new InetSocketAddress("127.0.0.2", clientId.localAddress().getPort()), serverId.peerAddress());
        assertEquals(new InetSocketAddress("127.0.0.1", SERVICE_PORT), serverId.localAddress());
        assertSame(serverDev, serverId.device());
        serverId.createQp(server.pd, server.qpAttrs());
        serverId.qp().postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(server.mr, 0, 4096)));
        serverId.accept(new ConnParam());
        assertEquals(QpState.RTS, serverId.qp().state(), "rdma_accept moves the QP before the REP");

        RdmaCmEvent established = expect(clientCh, RdmaCmEventType.ESTABLISHED);
        assertSame(clientId, established.id());
        assertEquals(QpState.RTS, clientId.qp().state());
        expect(serverCh, RdmaCmEventType.ESTABLISHED);

        // SEND
        byte[] message = "over an RDMA CM connection".getBytes(StandardCharsets.US_ASCII);
        client.mr.buffer().put(0, message);
        clientId.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(client.mr, 0, message.length)));
        WorkCompletion recv = server.completion();
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(WcOpcode.RECV, recv.opcode());
        assertEquals(message.length, recv.byteLen());
        byte[] got = new byte[message.length];
        server.mr.buffer().get(0, got);
        assertArrayEquals(message, got);
        assertEquals(WcStatus.SUCCESS, client.completion().status());

        // RDMA WRITE into the server's region at 1024
        byte[] written = "written by the client".getBytes(StandardCharsets.US_ASCII);
        client.mr.buffer().put(512, written);
        clientId.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(client.mr, 512, written.length))
            .remoteAddress(server.mr.address() + 1024).rkey(server.mr.rkey()));
        WorkCompletion write = client.completion();
        assertEquals(WcStatus.SUCCESS, write.status(), write.toString());
        byte[] landed = new byte[written.length];
        server.mr.buffer().get(1024, landed);
        assertArrayEquals(written, landed);

        // RDMA READ of the server's region at 2048
        byte[] served = "read by the client".getBytes(StandardCharsets.US_ASCII);
        server.mr.buffer().put(2048, served);
        clientId.qp().postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(client.mr, 3072, served.length))
            .remoteAddress(server.mr.address() + 2048).rkey(server.mr.rkey()));
        WorkCompletion read = client.completion();
        assertEquals(WcStatus.SUCCESS, read.status(), read.toString());
        byte[] fetched = new byte[served.length];
        client.mr.buffer().get(3072, fetched);
        assertArrayEquals(served, fetched);

        // The client disconnects: QP to ERR, DREQ; the server hears it and answers (DREP).
        clientId.disconnect();
        assertEquals(QpState.ERR, clientId.qp().state());
        expect(serverCh, RdmaCmEventType.DISCONNECTED);
        serverId.disconnect();
        assertEquals(QpState.ERR, serverId.qp().state());
        expect(clientCh, RdmaCmEventType.DISCONNECTED);
        expect(clientCh, RdmaCmEventType.TIMEWAIT_EXIT);
        expect(serverCh, RdmaCmEventType.TIMEWAIT_EXIT);
        assertThrows(InvalidStateException.class, clientId::disconnect);

        clientId.qp().close();
        serverId.qp().close();
        clientId.close();
        serverId.close();
        listener.close();
        serverCh.close();
        clientCh.close();
    }

    @Test
    void bothSidesDisconnectingAtOnceGetDisconnectedAndTimeWaitExitOnceEach() throws Exception {
        RdmaCmId listener = listen();
        RdmaCmId clientId = resolvedClient();
        clientId.connect(new ConnParam());
        RdmaCmId serverId = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST).id();
        ids.add(serverId);
        serverId.createQp(server.pd, server.qpAttrs());
        serverId.accept(new ConnParam());
        expect(clientCh, RdmaCmEventType.ESTABLISHED);
        expect(serverCh, RdmaCmEventType.ESTABLISHED);

        // Whether the DREQs cross (each side answers the other's with a DREP at once) or one arrives
        // before the other side's call (which then sends the DREP), each side hears it once.
        clientId.disconnect();
        serverId.disconnect();
        expect(clientCh, RdmaCmEventType.DISCONNECTED);
        expect(serverCh, RdmaCmEventType.DISCONNECTED);
        expect(clientCh, RdmaCmEventType.TIMEWAIT_EXIT);
        expect(serverCh, RdmaCmEventType.TIMEWAIT_EXIT);
        assertNull(clientCh.get(500, TimeUnit.MILLISECONDS), "nothing more");
        assertNull(serverCh.poll());

        clientId.qp().close();
        serverId.qp().close();
        clientId.close();
        serverId.close();
        listener.close();
    }

    @Test
    void connectingToAPortNobodyListensOnIsRejectedWithReason8() throws Exception {
        RdmaCmId id = resolvedClient();
        id.connect(new ConnParam());
        RdmaCmEvent e = expect(clientCh, RdmaCmEventType.REJECTED);
        assertEquals(8, e.status(), "REJ invalid service ID, at once rather than after the REQ's retries");
        id.qp().close();
        id.close();
    }

    @Test
    void aServerRejectIsRejectedWithReason28() throws Exception {
        RdmaCmId listener = listen();
        RdmaCmId id = resolvedClient();
        id.connect(new ConnParam());
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        ids.add(req.id());
        req.id().reject(new byte[0]);
        RdmaCmEvent e = expect(clientCh, RdmaCmEventType.REJECTED);
        assertEquals(28, e.status(), "REJ consumer defined");
        assertNull(serverCh.poll());
        id.qp().close();
        id.close();
        req.id().close();
        listener.close();
    }

    @Test
    void misuseIsNamed() throws Exception {
        RdmaCmId id = clientCh.createId(PortSpace.TCP);
        ids.add(id);
        assertThrows(InvalidStateException.class, () -> id.connect(new ConnParam()));
        assertThrows(InvalidStateException.class, () -> id.createQp(client.pd, client.qpAttrs()));
        assertThrows(InvalidAttributeException.class,
            () -> id.bindAddr(new InetSocketAddress("127.0.0.9", SERVICE_PORT)));
        id.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", SERVICE_PORT), 2000);
        // As librdmacm's rdma_destroy_id (cma.c: it waits until events_completed reaches the events_reported
        // that ucma_destroy_kern_id returns), only an event taken and not acknowledged holds close back; an
        // event still queued would be discarded with the ID (closedIdDiscardsItsUnreadEvents).
        RdmaCmEvent resolved = clientCh.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(resolved, "no ADDR_RESOLVED within " + WAIT_S + " s");
        assertEquals(RdmaCmEventType.ADDR_RESOLVED, resolved.type(), resolved.toString());
        assertThrows(ResourceBusyException.class, id::close, "the ADDR_RESOLVED event taken is not acknowledged");
        resolved.ack();
        id.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        assertThrows(InvalidAttributeException.class, () -> id.createQp(server.pd, server.qpAttrs()));
        id.createQp(client.pd, client.qpAttrs());
        assertThrows(InvalidAttributeException.class, () -> id.connect(new ConnParam().privateData(new byte[57])));
        assertThrows(ResourceBusyException.class, clientCh::close);
        id.qp().close();
        id.close();
        clientCh.close();
    }

    /**
     * rdma_destroy_id discards the events the application never took: the kernel frees them with the ID
     * (ucma.c, ucma_destroy_private_ctx and ucma_cleanup_ctx_events) and librdmacm waits only for those it
     * delivered. So an ID closes with its ADDR_RESOLVED still queued, and that event never comes out of
     * the channel, which then closes too.
     */
    @Test
    void closedIdDiscardsItsUnreadEvents() throws Exception {
        RdmaCmId unread = clientCh.createId(PortSpace.TCP);
        ids.add(unread);
        unread.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", SERVICE_PORT),
            2000);
        RdmaCmId other = clientCh.createId(PortSpace.TCP);
        ids.add(other);
        other.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", SERVICE_PORT),
            2000);
        unread.close();
        RdmaCmEvent e = expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        assertSame(other, e.id(), "the closed ID's event was discarded, the other ID's stays");
        assertNull(clientCh.poll(), "nothing of the closed ID reaches getCmEvent");
        other.close();
        clientCh.close();
    }
}
