package io.jroce.tests.cm;

import static io.jroce.tests.cm.CmUdpPair.expect;
import static io.jroce.tests.cm.CmUdpPair.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.pcap.PcapReader;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * {@code rdma_set_option} as the kernel applies it, between two devices on UDP loopback with the
 * client's traffic captured: TOS set before rdma_resolve_route is the route's traffic class, in the
 * REQ's primary path (read back from the capture) and in both QPs' address vectors (the passive side
 * takes the REQ's); ACK_TIMEOUT set before the route makes the path's packet life time timeout - 1,
 * so the REQ's local ACK timeout is {@code cm_ack_timeout(15, timeout - 1)}, and is each QP's ACK
 * timeout where its ID set it, the REQ's on a passive ID that did not. Bad values and misuse throw.
 */
class RdmaCmSetOptionUdpTest {
    private static final int SERVICE_PORT = 7471;
    private static final int TOS = 0xB8; // DSCP 46 (EF)
    private static final int CLIENT_ACK_TIMEOUT = 14;
    /** cm_ack_timeout(ca_ack_delay 15, packet life 13): 14 < 15, so 15 + (14 >= 14). */
    private static final int REQ_LOCAL_ACK_TIMEOUT = 16;
    private static final int SERVER_ACK_TIMEOUT = 17;

    private static QpInitAttributes rc(CompletionQueue cq) {
        return new QpInitAttributes().type(QpType.RC).cq(cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
    }

    @Test
    void tosAndAckTimeoutReachTheReqAndBothQps(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("client.pcap");
        int udpPort = freePort();
        List<QpAttributes> qps = new ArrayList<>();
        try (RdmaDevice serverDev = SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(udpPort).open();
             RdmaDevice clientDev = SoftRnic.builder().name("cli").address("127.0.0.2").udpPort(udpPort)
                 .pcap(pcap).open();
             RdmaEventChannel serverCh = RdmaCm.createEventChannel();
             RdmaEventChannel clientCh = RdmaCm.createEventChannel()) {
            ProtectionDomain serverPd = serverDev.allocPd();
            CompletionQueue serverCq = serverDev.createCq(16);
            ProtectionDomain clientPd = clientDev.allocPd();
            CompletionQueue clientCq = clientDev.createCq(16);
            RdmaCmId listener = serverCh.createId(PortSpace.TCP);
            listener.bindAddr(new InetSocketAddress("127.0.0.1", SERVICE_PORT));
            listener.listen(4);

            // two connections: the server's ID sets an ACK timeout of its own on the first only
            for (boolean serverSets : new boolean[] {true, false}) {
                RdmaCmId client = clientCh.createId(PortSpace.TCP);
                client.resolveAddr(new InetSocketAddress("127.0.0.2", 0),
                    new InetSocketAddress("127.0.0.1", SERVICE_PORT), 2000);
                expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
                // as cmatose's addr_handler: before rdma_resolve_route
                client.setOption(RdmaCmOption.TOS, TOS);
                client.setOption(RdmaCmOption.ACK_TIMEOUT, CLIENT_ACK_TIMEOUT);
                client.resolveRoute(2000);
                expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
                client.createQp(clientPd, rc(clientCq));
                client.connect(new ConnParam());
                RdmaCmId server = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST).id();
                server.createQp(serverPd, rc(serverCq));
                if (serverSets) {
                    server.setOption(RdmaCmOption.ACK_TIMEOUT, SERVER_ACK_TIMEOUT); // as cmatose's connect_handler
                }
                server.accept(new ConnParam());
                expect(clientCh, RdmaCmEventType.ESTABLISHED);
                expect(serverCh, RdmaCmEventType.ESTABLISHED);
                qps.add(client.qp().query());
                qps.add(server.qp().query());
                client.disconnect();
                expect(serverCh, RdmaCmEventType.DISCONNECTED);
                server.disconnect();
                expect(clientCh, RdmaCmEventType.DISCONNECTED);
                client.qp().close();
                server.qp().close();
                client.close();
                server.close();
            }
            listener.close();
            clientCq.close();
            clientPd.close();
            serverCq.close();
            serverPd.close();
        }

        // client, server of the first connection, then of the second
        for (int i = 0; i < 4; i++) {
            assertEquals(TOS, qps.get(i).addressVector().trafficClass(), "QP " + i + "'s traffic class");
        }
        assertEquals(CLIENT_ACK_TIMEOUT, qps.get(0).timeout(), "the client's ACK timeout: its ID's");
        assertEquals(SERVER_ACK_TIMEOUT, qps.get(1).timeout(), "the server's ACK timeout: its ID's");
        assertEquals(CLIENT_ACK_TIMEOUT, qps.get(2).timeout(), "the client's ACK timeout: its ID's");
        assertEquals(REQ_LOCAL_ACK_TIMEOUT, qps.get(3).timeout(), "the server's ACK timeout: the REQ's");

        List<CmPathFlyweight> reqPaths = reqPaths(pcap);
        assertTrue(reqPaths.size() >= 2, "a REQ per connection (a retransmission repeats one): " + reqPaths.size());
        for (CmPathFlyweight path : reqPaths) {
            assertEquals(TOS, path.trafficClass(), "the REQ's traffic class");
            assertEquals(REQ_LOCAL_ACK_TIMEOUT, path.localAckTimeout(), "the REQ's local ACK timeout");
            assertEquals(64, path.hopLimit(), "the REQ's hop limit");
        }
    }

    @Test
    void badValuesAndMisuseThrowTypedExceptions() throws Exception {
        try (RdmaEventChannel ch = RdmaCm.createEventChannel()) {
            RdmaCmId rc = ch.createId(PortSpace.TCP);
            assertThrows(InvalidAttributeException.class, () -> rc.setOption(null, 0));
            assertThrows(InvalidAttributeException.class, () -> rc.setOption(RdmaCmOption.TOS, -1));
            assertThrows(InvalidAttributeException.class, () -> rc.setOption(RdmaCmOption.TOS, 256));
            assertThrows(InvalidAttributeException.class, () -> rc.setOption(RdmaCmOption.ACK_TIMEOUT, -1));
            assertThrows(InvalidAttributeException.class, () -> rc.setOption(RdmaCmOption.ACK_TIMEOUT, 32));
            rc.setOption(RdmaCmOption.TOS, 255);
            rc.setOption(RdmaCmOption.ACK_TIMEOUT, 31);
            rc.close();
            assertThrows(ResourceClosedException.class, () -> rc.setOption(RdmaCmOption.TOS, 0));

            RdmaCmId ud = ch.createId(PortSpace.UDP);
            ud.setOption(RdmaCmOption.TOS, 0x20);
            // rdma_set_ack_timeout: EINVAL on a UD ID
            assertThrows(InvalidAttributeException.class, () -> ud.setOption(RdmaCmOption.ACK_TIMEOUT, 14));
            ud.close();
        }
    }

    /** The primary paths of the REQs in the capture (Ethernet, IPv4, UDP, BTH, DETH, then the MAD). */
    private static List<CmPathFlyweight> reqPaths(Path pcap) throws Exception {
        List<CmPathFlyweight> paths = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pcap)) {
            for (PcapReader.Record r : PcapReader.read(in)) {
                int mad = 14 + 20 + 8 + 12 + 8;
                if (r.data().length < mad + 256) {
                    continue;
                }
                UnsafeBuffer b = new UnsafeBuffer(r.data());
                int attribute = b.getShort(mad + MadHeaderFlyweight.ATTRIBUTE_ID_OFFSET, java.nio.ByteOrder.BIG_ENDIAN)
                    & 0xFFFF;
                if (attribute == MadHeaderFlyweight.ATTR_REQ) {
                    CmPathFlyweight path = new CmPathFlyweight();
                    new CmReqFlyweight().wrap(b, mad).primaryPath(path);
                    paths.add(path);
                }
            }
        }
        return paths;
    }
}
