package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static io.jroce.tests.interop.CmPeerChecks.next;
import static io.jroce.tests.interop.CmPeerChecks.expect;
import static io.jroce.tests.interop.CmPeerChecks.completion;
import static io.jroce.tests.interop.CmPeerChecks.assertNoCmDrops;
import static io.jroce.tests.interop.CmPeerChecks.assertLine;
import static io.jroce.tests.interop.CmPeerChecks.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.testsupport.Tshark;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
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
 * jroce's RDMA CM in the UDP port space (SIDR, IBTA 12.11) against librdmacm's {@code udaddy} on real
 * rxe in a guest, both ways: udaddy's client resolves a jroce listener that answers its 10 datagrams as
 * udaddy's server does (the reply's address from the receive's GRH, the QPN from its immediate data),
 * and a jroce client resolves udaddy's server and exchanges its 10 datagrams each way. Both programs
 * exit 0; the kernel's CM MADs are all taken (no {@code cm_drop_*}).
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SidrRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final int UDADDY_PORT = 7174;
    /** udaddy's defaults: 10 messages of 100 bytes each way. */
    private static final int MESSAGES = 10;
    private static final int SIZE = 100;
    private static final int GRH = 40;
    private static final int SLOT = 256;
    private static final int RDMA_UDP_QKEY = 0x01234567;

    /** rxe's {@code udaddy -s <host>} resolves a jroce UD listener, which answers as udaddy's server does. */
    @Test
    void udaddyClientResolvesAJroceListener() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-ud", host, 4 * MESSAGES, 2 * MESSAGES * SLOT)) {
                RdmaCmId listener = side.listen(PortSpace.UDP, UDADDY_PORT, 4);
                Path pcap = Path.of("/tmp/sidr-udaddy-client.pcap");
                try (RxePeer peer = RxePeer.builder().name("rxe-udaddy-client").network(network)
                         .command("udaddy -s " + host).start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, pcap, BOOT);
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, peer);
                    assertSame(listener, req.listenId());
                    assertEquals(180, req.privateData().length);
                    RdmaCmId conn = req.id();
                    assertEquals(peer.ipv4(), conn.peerAddress().getAddress().getHostAddress());
                    QueuePair qp = conn.createQp(side.pd, udInit(side.cq));
                    for (int i = 0; i < MESSAGES; i++) {
                        qp.postRecv(new ReceiveWorkRequest().wrId(i).sgList(
                            ScatterGatherEntry.of(side.mr, (long) i * SLOT, GRH + SIZE)));
                    }
                    conn.accept(new ConnParam());

                    int peerQpn = -1;
                    for (int i = 0; i < MESSAGES; i++) {
                        WorkCompletion wc = side.completion(peer);
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        assertEquals(WcOpcode.RECV, wc.opcode());
                        assertEquals(GRH + SIZE, wc.byteLen());
                        assertTrue(wc.withImm());
                        assertEquals(wc.srcQp(), wc.immData(), "udaddy's immediate data is its QPN");
                        assertEquals(peer.ipv4(), grhSource(side.mr, wc.wrId()).getHostAddress());
                        peerQpn = wc.immData();
                    }
                    // create_reply_ah: the address from the GRH, the QPN from the immediate, this QP's Q_Key.
                    AddressHandle ah = side.pd.createAddressHandle(new AddressVector()
                        .destGid(Gid.of(grhSource(side.mr, 0))).sgidIndex(0));
                    for (int i = 0; i < MESSAGES; i++) {
                        qp.postSend(new SendWorkRequest().wrId(100 + i).opcode(WrOpcode.SEND_WITH_IMM)
                            .immData(qp.qpNum()).sendFlags(SendFlags.SIGNALED).ud(ah, peerQpn, RDMA_UDP_QKEY)
                            .sgList(ScatterGatherEntry.of(side.mr, (long) (MESSAGES + i) * SLOT, SIZE)));
                    }
                    for (int i = 0; i < MESSAGES; i++) {
                        WorkCompletion wc = side.completion(peer);
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        assertEquals(WcOpcode.SEND, wc.opcode());
                    }
                    GuestResult r = peer.awaitExit(RUN);
                    assertEquals(0, r.exitStatus(), r.console());
                    assertLine(r, "data transfers complete");
                    assertLine(r, "return status 0");
                    cap.stop();
                    cap.check();
                    assertNoCmDrops(side.dev);
                    assertEquals(1L, side.dev.counters().get("cm_rx_sidr_req"));
                    assertEquals(1L, side.dev.counters().get("cm_tx_sidr_rep"));
                    Tshark.ifInstalled().ifPresent(t -> assertMessages(t, pcap,
                        List.of("ServiceIDResReq", "ServiceIDResReqResp")));
                    ah.close();
                    qp.close();
                    conn.close();
                    listener.close();
                }
            }
        }
    }

    /**
     * A jroce UD client resolves rxe's udaddy server: first a port nobody listens on (the kernel's
     * SIDR_REP status 1, UNREACHABLE), then udaddy's; ESTABLISHED with udaddy's QPN and Q_Key, 10
     * datagrams each way.
     */
    @Test
    void jroceClientResolvesTheUdaddyServer() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer peer = RxePeer.builder().name("rxe-udaddy-server").network(network)
                 .command("udaddy").start()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-ud", host, 4 * MESSAGES, 2 * MESSAGES * SLOT)) {
                Path pcap = Path.of("/tmp/sidr-udaddy-server.pcap");
                RoceCapture cap = RoceCapture.onGuestTap(peer, pcap, BOOT);
                peer.awaitOutput("udaddy: starting server", BOOT);

                RdmaCmId refused = side.resolved(PortSpace.UDP, peer.ipv4(), UDADDY_PORT + 1, udInit(side.cq), peer);
                refused.connect(new ConnParam());
                assertEquals(1, side.expect(RdmaCmEventType.UNREACHABLE, peer).status(), "IB_SIDR_UNSUPPORTED");
                refused.qp().close();
                refused.close();

                // udaddy prints "starting server" before it listens: a status 1 until then is retried.
                RdmaCmId id = null;
                RdmaCmEvent established = null;
                for (int attempt = 0; attempt < 20 && established == null; attempt++) {
                    id = side.resolved(PortSpace.UDP, peer.ipv4(), UDADDY_PORT, udInit(side.cq), peer);
                    for (int i = 0; i < MESSAGES; i++) {
                        id.qp().postRecv(new ReceiveWorkRequest().wrId(i).sgList(
                            ScatterGatherEntry.of(side.mr, (long) i * SLOT, GRH + SIZE)));
                    }
                    id.connect(new ConnParam());
                    RdmaCmEvent e = side.next(peer);
                    if (e.type() == RdmaCmEventType.ESTABLISHED) {
                        established = e;
                    } else {
                        assertEquals(RdmaCmEventType.UNREACHABLE, e.type(), e.toString());
                        assertEquals(1, e.status(), e.toString());
                        id.qp().close();
                        id.close();
                        Thread.sleep(500);
                    }
                }
                assertNotNull(established, "udaddy's server never listened\n" + String.join("\n", peer.consoleLines()));
                RdmaUdParam ud = established.udParam();
                assertEquals(RDMA_UDP_QKEY, ud.qkey());
                assertEquals(InetAddress.getByName(peer.ipv4()), ud.ahAttr().destGid().toInetAddress());
                QueuePair qp = id.qp();
                AddressHandle ah = side.pd.createAddressHandle(ud.ahAttr());
                byte[] message = new byte[SIZE];
                for (int i = 0; i < SIZE; i++) {
                    message[i] = (byte) i;
                }
                for (int i = 0; i < MESSAGES; i++) {
                    side.mr.buffer().put((MESSAGES + i) * SLOT, message);
                    qp.postSend(new SendWorkRequest().wrId(100 + i).opcode(WrOpcode.SEND_WITH_IMM)
                        .immData(qp.qpNum()).sendFlags(SendFlags.SIGNALED).ud(ah, ud.qpNum(), ud.qkey())
                        .sgList(ScatterGatherEntry.of(side.mr, (long) (MESSAGES + i) * SLOT, SIZE)));
                }
                int sends = 0;
                int recvs = 0;
                while (sends + recvs < 2 * MESSAGES) {
                    WorkCompletion wc = side.completion(peer);
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    if (wc.opcode() == WcOpcode.SEND) {
                        sends++;
                        continue;
                    }
                    recvs++;
                    assertEquals(WcOpcode.RECV, wc.opcode());
                    assertEquals(GRH + SIZE, wc.byteLen());
                    assertEquals(ud.qpNum(), wc.srcQp(), "the replies come from the QP the SIDR_REP named");
                    assertEquals(ud.qpNum(), wc.immData());
                    assertEquals(peer.ipv4(), grhSource(side.mr, wc.wrId()).getHostAddress());
                }
                GuestResult r = peer.awaitExit(RUN);
                assertEquals(0, r.exitStatus(), r.console());
                assertLine(r, "data transfers complete");
                assertLine(r, "return status 0");
                cap.stop();
                cap.check();
                assertNoCmDrops(side.dev);
                ah.close();
                qp.close();
                id.close();
            }
        }
    }

    /** The IPv4 source address in the GRH area of receive {@code slot} (the IPv4 header fills its last 20 bytes). */
    private static InetAddress grhSource(MemoryRegion mr, long slot) throws java.net.UnknownHostException {
        byte[] a = new byte[4];
        mr.buffer().get((int) slot * SLOT + 20 + 12, a);
        return InetAddress.getByAddress(a);
    }

    private static QpInitAttributes udInit(CompletionQueue cq) {
        return new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(MESSAGES).maxRecvWr(MESSAGES).maxSendSge(1)
            .maxRecvSge(1);
    }
}
