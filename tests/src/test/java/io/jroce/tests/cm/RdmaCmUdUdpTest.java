package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.ReceiveWorkRequest;
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
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * RDMA CM in the UDP port space between two jroce devices on one host ({@link CmUdpPair}): SIDR
 * resolves the listener's UD QP and Q_Key, and UD SENDs flow both ways with the address handle built
 * from the events, as udaddy does it.
 */
class RdmaCmUdUdpTest extends CmUdpPair {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE;
    private static final int SERVICE_PORT = 7174;
    private static final int RDMA_UDP_QKEY = 0x01234567;
    /** A UD receive buffer starts with the 40-byte GRH area. */
    private static final int GRH = 40;

    RdmaCmUdUdpTest() {
        super(ACCESS);
    }

    private RdmaCmId listen() {
        return listen(PortSpace.UDP, SERVICE_PORT, 8);
    }

    private RdmaCmId resolvedClient(int port) throws InterruptedException {
        RdmaCmId id = routedClient(PortSpace.UDP, port);
        id.createQp(client.pd, client.udAttrs());
        return id;
    }

    @Test
    void connectThenUdSendsBothWaysWithTheAddressHandleFromTheEvents() throws Exception {
        RdmaCmId listener = listen();
        RdmaCmId clientId = resolvedClient(SERVICE_PORT);
        assertEquals(QpState.RTS, clientId.qp().state(), "ucma_init_ud_qp: INIT, RTR, RTS at rdma_create_qp");
        assertEquals(QpType.UD, clientId.qp().type());
        clientId.qp().postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(client.mr, 0, 1024)));
        byte[] hello = "udaddy-like hello".getBytes(StandardCharsets.US_ASCII);
        clientId.connect(new ConnParam().privateData(hello));

        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listener, req.listenId());
        RdmaCmId serverId = req.id();
        ids.add(serverId);
        assertEquals(180, req.privateData().length, "a SIDR_REQ's private data after the RDMA CM header, padded");
        assertArrayEquals(hello, Arrays.copyOf(req.privateData(), hello.length));
        assertNull(req.udParam());
        assertEquals(new InetSocketAddress("127.0.0.2", clientId.localAddress().getPort()), serverId.peerAddress());
        serverId.createQp(server.pd, server.udAttrs());
        assertEquals(QpState.RTS, serverId.qp().state());
        serverId.qp().postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(server.mr, 0, 1024)));
        serverId.accept(new ConnParam().privateData(new byte[] {42}));

        RdmaCmEvent established = expect(clientCh, RdmaCmEventType.ESTABLISHED);
        assertSame(clientId, established.id());
        assertEquals(136, established.privateData().length, "a SIDR_REP's private data");
        assertEquals(42, established.privateData()[0]);
        RdmaUdParam ud = established.udParam();
        assertNotNull(ud);
        assertEquals(serverId.qp().qpNum(), ud.qpNum());
        assertEquals(RDMA_UDP_QKEY, ud.qkey());
        assertEquals(Gid.of(InetAddress.getByName("127.0.0.1")), ud.ahAttr().destGid());

        // Client to server, with the AH from ESTABLISHED, SEND with immediate = its QPN as udaddy does.
        byte[] message = "a datagram".getBytes(StandardCharsets.US_ASCII);
        client.mr.buffer().put(2048, message);
        AddressHandle ah = client.pd.createAddressHandle(ud.ahAttr());
        clientId.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND_WITH_IMM)
            .immData(clientId.qp().qpNum()).sendFlags(SendFlags.SIGNALED).ud(ah, ud.qpNum(), ud.qkey())
            .sgList(ScatterGatherEntry.of(client.mr, 2048, message.length)));
        WorkCompletion recv = server.completion();
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(WcOpcode.RECV, recv.opcode());
        assertEquals(GRH + message.length, recv.byteLen());
        assertEquals(clientId.qp().qpNum(), recv.immData());
        assertEquals(clientId.qp().qpNum(), recv.srcQp());
        assertTrue(recv.grh());
        byte[] got = new byte[message.length];
        server.mr.buffer().get(GRH, got);
        assertArrayEquals(message, got);
        assertEquals(WcStatus.SUCCESS, client.completion().status());

        // Server to client: the peer's address from the CONNECT_REQUEST, its QPN from the completion.
        byte[] answer = "an answer".getBytes(StandardCharsets.US_ASCII);
        server.mr.buffer().put(2048, answer);
        AddressHandle back = server.pd.createAddressHandle(new io.jroce.verbs.AddressVector()
            .destGid(Gid.of(serverId.peerAddress().getAddress())).udpPort(udpPort));
        serverId.qp().postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .ud(back, recv.srcQp(), RDMA_UDP_QKEY).sgList(ScatterGatherEntry.of(server.mr, 2048, answer.length)));
        WorkCompletion cr = client.completion();
        assertEquals(WcStatus.SUCCESS, cr.status(), cr.toString());
        assertEquals(GRH + answer.length, cr.byteLen());
        byte[] got2 = new byte[answer.length];
        client.mr.buffer().get(GRH, got2);
        assertArrayEquals(answer, got2);
        assertEquals(WcStatus.SUCCESS, server.completion().status());

        assertNull(serverCh.get(200, TimeUnit.MILLISECONDS), "the passive side of UD sees no ESTABLISHED");
        ah.close();
        back.close();
        serverId.close();
        clientId.close();
        listener.close();
        assertEquals(0L, serverDev.counters().get("cm_drop_bad_mad") + serverDev.counters().get("cm_drop_unexpected"));
        assertEquals(1L, serverDev.counters().get("cm_tx_sidr_rep"));
        assertEquals(1L, clientDev.counters().get("cm_tx_sidr_req"));
    }

    /** A UD listener on the wildcard (0.0.0.0) answers a SIDR_REQ from the device it arrived on. */
    @Test
    void aWildcardUdListenerAnswersOnTheArrivalDevice() throws Exception {
        RdmaCmId listener = serverCh.createId(PortSpace.UDP);
        ids.add(listener);
        listener.bindAddr(new InetSocketAddress("0.0.0.0", SERVICE_PORT));
        listener.listen(8);
        RdmaCmId clientId = resolvedClient(SERVICE_PORT);
        clientId.connect(new ConnParam());
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listener, req.listenId());
        RdmaCmId serverId = req.id();
        ids.add(serverId);
        assertSame(serverDev, serverId.device());
        assertEquals(new InetSocketAddress("127.0.0.1", SERVICE_PORT), serverId.localAddress());
        serverId.createQp(server.pd, server.udAttrs());
        serverId.accept(new ConnParam());
        RdmaUdParam ud = expect(clientCh, RdmaCmEventType.ESTABLISHED).udParam();
        assertEquals(serverId.qp().qpNum(), ud.qpNum());
        assertEquals(Gid.of(InetAddress.getByName("127.0.0.1")), ud.ahAttr().destGid());
        serverId.close();
        clientId.close();
        listener.close();
    }

    @Test
    void rejectIsUnreachableWithStatus2() throws Exception {
        listen();
        RdmaCmId clientId = resolvedClient(SERVICE_PORT);
        clientId.connect(new ConnParam());
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        ids.add(req.id());
        req.id().reject(new byte[] {5, 6});
        RdmaCmEvent e = expect(clientCh, RdmaCmEventType.UNREACHABLE);
        assertEquals(2, e.status(), "cma_sidr_rep_handler: the SIDR_REP's status");
        assertEquals(5, e.privateData()[0]);
        assertNull(e.udParam());
    }

    @Test
    void noListenerIsUnreachableWithStatus1() throws Exception {
        listen();
        RdmaCmId clientId = resolvedClient(SERVICE_PORT + 1);
        clientId.connect(new ConnParam());
        RdmaCmEvent e = expect(clientCh, RdmaCmEventType.UNREACHABLE);
        assertEquals(1, e.status(), "IB_SIDR_UNSUPPORTED");
        assertNull(serverCh.get(200, TimeUnit.MILLISECONDS));
    }

    @Test
    void closingAnUnansweredRequestRejectsIt() throws Exception {
        listen();
        RdmaCmId clientId = resolvedClient(SERVICE_PORT);
        clientId.connect(new ConnParam());
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        req.id().close();
        assertEquals(2, expect(clientCh, RdmaCmEventType.UNREACHABLE).status());
    }

    @Test
    void misuseThrowsTypedExceptions() throws Exception {
        RdmaCmId id = clientCh.createId(PortSpace.UDP);
        ids.add(id);
        id.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", SERVICE_PORT), 2000);
        expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        assertThrows(InvalidAttributeException.class, () -> id.createQp(client.pd, client.udAttrs().type(QpType.RC)));
        id.createQp(client.pd, client.udAttrs());
        id.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        assertThrows(InvalidAttributeException.class, () -> id.connect(new ConnParam().privateData(new byte[181])),
            "180 bytes after the RDMA CM header");
    }
}
