package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * The RDMA CM API's limits against peers that send REQs faster than the application reads them,
 * and against applications that close IDs instead of answering: two jroce devices on one host
 * (127.0.0.1 the server, 127.0.0.2 the client, one UDP port), every wait bounded, none of them on
 * a duration the behaviour depends on.
 */
class RdmaCmAttackUdpTest extends CmUdpPair {
    private static final int SERVICE_PORT = 7174;
    private static final int CQ_DEPTH = 64;

    RdmaCmAttackUdpTest() {
        super(AccessFlags.LOCAL_WRITE, CQ_DEPTH);
    }

    private static QpInitAttributes qpAttrs(CompletionQueue cq) {
        return new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
    }

    private RdmaCmId listen(int backlog) {
        return listen(PortSpace.TCP, SERVICE_PORT, backlog);
    }

    /** A client ID through ROUTE_RESOLVED, with its QP, then connected. */
    private RdmaCmId connect() throws InterruptedException {
        RdmaCmId id = routedClient(PortSpace.TCP, SERVICE_PORT);
        id.createQp(client.pd, qpAttrs(client.cq));
        id.connect(new ConnParam());
        return id;
    }

    private long serverCount(String name) {
        return serverDev.counters().get(name);
    }

    private void awaitServerCount(String name, long value) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (serverCount(name) < value) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + " did not reach " + value + " within " + WAIT_S + " s: "
                    + serverCount(name));
            }
            Thread.sleep(1);
        }
    }

    /**
     * A listener takes at most its backlog of REQs that the application has not read (ucma.c: the
     * event handler refuses with -ENOMEM, and cm_destroy_id forgets the REQ without a REJ); a REQ
     * beyond it is counted and dropped, and its retransmission is reported once the application
     * has read a request. Before, every REQ with fresh comm IDs made a connection, an ID and an
     * event, without limit.
     */
    @Test
    void aListenersBacklogBoundsTheRequestsNotYetRead() throws Exception {
        RdmaCmId listener = listen(2);
        connect();
        connect();
        connect();
        awaitServerCount("cm_drop_backlog", 1);
        RdmaCmEvent first = serverCh.poll();
        RdmaCmEvent second = serverCh.poll();
        assertNotNull(first);
        assertNotNull(second);
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, first.type());
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, second.type());
        assertNull(serverCh.poll(), "the third REQ found the backlog full");
        first.ack();
        second.ack();
        // Room again: the client's retransmission of the third REQ (6144 ms later) is a new request.
        RdmaCmEvent third = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listener, third.listenId());
        assertEquals(1, serverCount("cm_drop_backlog"));
        assertEquals(0, serverCount("cm_tx_rej"), "nothing rejected: the peer was left to retry");
        for (RdmaCmEvent e : List.of(first, second, third)) {
            ids.add(e.id());
            e.id().reject(new byte[0]);
            e.id().close();
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status());
        }
    }

    /**
     * rdma_destroy_id on a request not answered rejects it (cm_destroy_id in REQ_RCVD: REJ 28). Before,
     * closing the ID only forgot it in the API: the manager kept the connection for good, and the
     * peer's repeated REQs got MRAs until it gave up.
     */
    @Test
    void closingAnUnansweredRequestRejectsIt() throws Exception {
        listen(8);
        connect();
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        ids.add(req.id());
        req.id().close();
        assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status());
        assertEquals(1, serverCount("cm_tx_rej"));
    }

    /**
     * rdma_destroy_id on an established connection without rdma_disconnect sends a DREQ
     * (cm_destroy_id in ESTABLISHED), so the peer learns of it at once. Before, the manager kept the
     * connection established for good and the peer never heard.
     */
    @Test
    void closingAnEstablishedIdDisconnectsThePeer() throws Exception {
        listen(8);
        RdmaCmId clientId = connect();
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        RdmaCmId serverId = req.id();
        ids.add(serverId);
        serverId.createQp(server.pd, qpAttrs(server.cq));
        serverId.accept(new ConnParam());
        expect(clientCh, RdmaCmEventType.ESTABLISHED);
        expect(serverCh, RdmaCmEventType.ESTABLISHED);
        serverId.close();
        RdmaCmEvent disconnected = expect(clientCh, RdmaCmEventType.DISCONNECTED);
        assertSame(clientId, disconnected.id());
        clientId.disconnect();
        expect(clientCh, RdmaCmEventType.TIMEWAIT_EXIT);
        assertEquals(1, serverCount("cm_tx_dreq"));
    }

    /**
     * Closing a listener rejects the requests the application never read (ucma_destroy_private_ctx
     * destroys their IDs: REJ 28). Before, they stayed in the manager and the channel for good.
     */
    @Test
    void closingAListenerRejectsTheRequestsNotYetRead() throws Exception {
        RdmaCmId listener = listen(8);
        connect();
        // The REQ's event is queued by the I/O task that counted it, before the close's task runs there.
        awaitServerCount("cm_rx_req", 1);
        listener.close();
        assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status());
        assertNull(serverCh.poll(), "the request was withdrawn from the channel");
        serverCh.close(); // no ID left open in it
    }

    /**
     * A REQ from 127.0.0.3 whose RDMA CM header claims 127.0.0.2 (a host the application may trust):
     * refused with REJ 28, sent back to where the REQ came from, and never reported. Before, the
     * application got a CONNECT_REQUEST whose peerAddress() was 127.0.0.2, while the REP and the
     * QP went to 127.0.0.3.
     */
    /** The IPv4-mapped GID of an IPv4 address. */
    private static byte[] ipv4Gid(int a, int b, int c, int d) {
        return new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) a, (byte) b, (byte) c, (byte) d};
    }

    @Test
    void aReqWhoseCmaHeaderClaimsAnotherAddressIsRejected() throws Exception {
        listen(8);
        try (DatagramSocket forger = new DatagramSocket(new InetSocketAddress("127.0.0.3", udpPort))) {
            forger.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_S));
            byte[] mad = new byte[256];
            UnsafeBuffer m = new UnsafeBuffer(mad);
            new MadHeaderFlyweight().wrap(m, 0).cmSend(MadHeaderFlyweight.ATTR_REQ, 0x5150);
            new CmReqFlyweight().wrap(m, 0).localCommId(0x5150).serviceId((0x0106L << 16) | SERVICE_PORT)
                .localCaGuid(0xBAD).localQpn(0x77).responderResources(1).initiatorDepth(1)
                .remoteCmResponseTimeout(20).transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(1)
                .localCmResponseTimeout(20).retryCount(7).partitionKey(0xFFFF).pathMtu(3).rnrRetryCount(7)
                .maxCmRetries(15)
                // the path names the real sender (else the CM answers REJ 12 before the CMA reads the header)
                .primaryPath(new CmPathFlyweight()).localPortGid(ipv4Gid(127, 0, 0, 3), 0)
                .remotePortGid(ipv4Gid(127, 0, 0, 1), 0);
            new CmaHeaderFlyweight().wrap(m, CmReqFlyweight.PRIVATE_DATA_OFFSET).cmaVersion(0).ipVersion(4)
                .port(40000).sourceIpv4(0x7F000002).destinationIpv4(0x7F000001);
            byte[] out = new byte[512];
            UnsafeBuffer ob = new UnsafeBuffer(out);
            RocePacket p = new RocePacket();
            int length = p.build(ob, 0, Opcode.UD_SEND_ONLY, mad.length);
            p.bth().partitionKey(0xFFFF).destQp(1).psn(0);
            p.deth().qKey(0x80010000).sourceQp(1);
            ob.putBytes(p.payloadOffset(), mad);
            int icrc = new IcrcCalculator().computeIpv4(0x7F000003, 0x7F000001, 0, IcrcCalculator.IPV4_FLAGS_DF,
                udpPort, udpPort, ob, 0, length);
            IcrcCalculator.writeIcrc(ob, length, icrc);
            forger.send(new DatagramPacket(out, length + IcrcCalculator.ICRC_LENGTH,
                new InetSocketAddress("127.0.0.1", udpPort)));

            byte[] in = new byte[512];
            DatagramPacket d = new DatagramPacket(in, in.length);
            forger.receive(d);
            RocePacket answer = new RocePacket();
            assertEquals(ParseResult.OK, answer.wrap(new UnsafeBuffer(in), 0, d.getLength() - IcrcCalculator.ICRC_LENGTH));
            UnsafeBuffer reply = new UnsafeBuffer(in, answer.payloadOffset(), 256);
            assertEquals(MadHeaderFlyweight.ATTR_REJ, new MadHeaderFlyweight().wrap(reply, 0).attributeId());
            CmRejFlyweight rej = new CmRejFlyweight().wrap(reply, 0);
            assertEquals(28, rej.reason());
            assertEquals(0x5150, rej.remoteCommId());
        }
        assertNull(serverCh.poll(), "no CONNECT_REQUEST reported");
        assertEquals(0, serverCount("drop_internal_error"));
    }
}
