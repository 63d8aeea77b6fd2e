package io.jroce.tests.cm;

import static io.jroce.tests.cm.CmUdpPair.expect;
import static io.jroce.tests.cm.CmUdpPair.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.testsupport.Tshark;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * The "--pcap captures of CM traffic that Wireshark dissects as CM MADs": a device opened
 * with a capture file records a refused connect, a connection and its disconnection, and tshark
 * reads every frame as RoCEv2 with a valid ICRC, each CM message as the CM attribute it is, with
 * the fields of the connection (service ID, QPNs, comm IDs, REJ reason) where the API put them.
 */
class CmPcapUdpTest {
    private static final int SERVICE_PORT = 7174;

    private static RdmaCmId resolved(RdmaEventChannel ch, int servicePort, ProtectionDomain pd, CompletionQueue cq)
        throws InterruptedException {
        RdmaCmId id = ch.createId(PortSpace.TCP);
        id.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", servicePort), 2000);
        expect(ch, RdmaCmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        expect(ch, RdmaCmEventType.ROUTE_RESOLVED);
        id.createQp(pd, new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1));
        return id;
    }

    private static final List<String> CM_MESSAGES = List.of("req", "rej", "mra", "rep", "rtu", "dreq", "drep");

    /** cm_tx_* then cm_rx_*, each in the order of {@link #CM_MESSAGES}. */
    private static List<Long> cmCounts(long... txThenRx) {
        return java.util.Arrays.stream(txThenRx).boxed().toList();
    }

    private static List<Long> cmCounts(RdmaDevice d) {
        java.util.Map<String, Long> c = d.counters();
        return java.util.stream.Stream.concat(CM_MESSAGES.stream().map(m -> c.get("cm_tx_" + m)),
            CM_MESSAGES.stream().map(m -> c.get("cm_rx_" + m))).toList();
    }

    @Test
    void tsharkReadsTheClientsCaptureAsTheCmExchangeItWas(@TempDir Path dir) throws Exception {
        Tshark tshark = Tshark.require();
        Path pcap = dir.resolve("cm-client.pcap");
        int udpPort = freePort();
        int clientQpn;
        int serverQpn;
        try (RdmaDevice serverDev = SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(udpPort).open();
             RdmaDevice clientDev = SoftRnic.builder().name("cli").address("127.0.0.2").udpPort(udpPort)
                 .pcap(pcap).open();
             RdmaEventChannel serverCh = RdmaCm.createEventChannel();
             RdmaEventChannel clientCh = RdmaCm.createEventChannel()) {
            ProtectionDomain serverPd = serverDev.allocPd();
            CompletionQueue serverCq = serverDev.createCq(8);
            ProtectionDomain clientPd = clientDev.allocPd();
            CompletionQueue clientCq = clientDev.createCq(8);

            RdmaCmId refused = resolved(clientCh, SERVICE_PORT + 1, clientPd, clientCq);
            refused.connect(new ConnParam());
            assertEquals(8, expect(clientCh, RdmaCmEventType.REJECTED).status());
            refused.qp().close();
            refused.close();

            RdmaCmId listener = serverCh.createId(PortSpace.TCP);
            listener.bindAddr(new InetSocketAddress("127.0.0.1", SERVICE_PORT));
            listener.listen(4);
            RdmaCmId client = resolved(clientCh, SERVICE_PORT, clientPd, clientCq);
            client.connect(new ConnParam());
            RdmaCmId server = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST).id();
            server.createQp(serverPd, new QpInitAttributes().cq(serverCq).maxSendWr(4).maxRecvWr(4)
                .maxSendSge(1).maxRecvSge(1));
            server.accept(new ConnParam());
            expect(clientCh, RdmaCmEventType.ESTABLISHED);
            expect(serverCh, RdmaCmEventType.ESTABLISHED);
            client.disconnect();
            expect(serverCh, RdmaCmEventType.DISCONNECTED);
            server.disconnect();
            expect(clientCh, RdmaCmEventType.DISCONNECTED);
            // The CM's own counts (cm.c's cm_rx_msgs / cm_tx_msgs), one per message in the capture.
            assertEquals(cmCounts(2, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1), cmCounts(clientDev), "client");
            assertEquals(cmCounts(0, 1, 0, 1, 0, 0, 1, 2, 0, 0, 0, 1, 1, 0), cmCounts(serverDev), "server");
            clientQpn = client.qp().qpNum();
            serverQpn = server.qp().qpNum();
            client.qp().close();
            server.qp().close();
            client.close();
            server.close();
            listener.close();
            clientCq.close();
            clientPd.close();
            serverCq.close();
            serverPd.close();
        }

        Tshark roce = tshark.decodingAsRoce(udpPort);
        // REQ, REJ; REQ, REP, RTU, DREQ, DREP: each sent or received by the client, all to QP1.
        roce.assertEveryFrameIsWellFormedRoce(pcap, 7);
        List<String> info = roce.fields(pcap, null, "infiniband.bth.destqp", "infiniband.mad.attributeid",
            "_ws.col.Info");
        assertEquals(List.of(
            "0x000001\t0x0010\tCM: ConnectRequest",
            "0x000001\t0x0012\tCM: ConnectReject",
            "0x000001\t0x0010\tCM: ConnectRequest",
            "0x000001\t0x0013\tCM: ConnectReply",
            "0x000001\t0x0014\tCM: ReadyToUse",
            "0x000001\t0x0015\tCM: DisconnectRequest",
            "0x000001\t0x0016\tCM: DisconnectReply"), info.stream().map(String::strip).toList());

        List<String> reqs = roce.fields(pcap, "infiniband.mad.attributeid == 0x0010", "infiniband.cm.req.serviceid",
            "infiniband.cm.req.localqpn", "infiniband.cm.req.transpsvctype", "infiniband.cm.req.maxcmretr");
        assertEquals(2, reqs.size(), String.join("\n", reqs));
        assertEquals(String.format("0x%016x\t0x%06x\t0x00\t0x0f", 0x1060000L | SERVICE_PORT, clientQpn),
            reqs.get(1), "the REQ of the connection: TCP port space service ID, the client's QPN, RC, 15 CM retries");
        assertEquals(List.of("0x0008"), roce.fields(pcap, "infiniband.mad.attributeid == 0x0012", "infiniband.cm.rej.reason"),
            "the REJ for the port nobody listens on: invalid service ID");
        List<String> rep = roce.fields(pcap, "infiniband.mad.attributeid == 0x0013", "infiniband.cm.rep.remotecommid",
            "infiniband.cm.rep.localqpn");
        List<String> reqIds = roce.fields(pcap, "infiniband.mad.attributeid == 0x0010", "infiniband.cm.req");
        assertEquals(List.of(reqIds.get(1) + "\t" + String.format("0x%06x", serverQpn)), rep,
            "the REP names the REQ's comm ID and carries the server's QPN");
        List<String> rtu = roce.fields(pcap, "infiniband.mad.attributeid == 0x0014", "infiniband.cm.rtu.localcommid");
        assertEquals(List.of(reqIds.get(1)), rtu, "the RTU comes from the client's comm ID");
    }
}
