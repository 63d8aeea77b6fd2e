package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static io.jroce.tests.interop.CmPeerChecks.expect;
import static io.jroce.tests.interop.CmPeerChecks.completion;
import static io.jroce.tests.interop.CmPeerChecks.assertNoCmDrops;
import static io.jroce.tests.interop.CmPeerChecks.assertLine;
import static io.jroce.tests.interop.CmPeerChecks.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.rnic.SoftRnic;
import io.jroce.testsupport.Tshark;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * jroce's RDMA CM (io.jroce.verbs.cm) against librdmacm's rping on real rxe in a guest: the
 * connection handshake (REQ, REP, RTU) both ways over IPv4 and IPv6, the REJ for a port nobody
 * listens on both ways, and the disconnection (DREQ, DREP) started by either side. jroce does not
 * speak rping's own protocol after the connection, so rping ends with an error, which is not checked.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CmRpingRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final long WAIT_S = CmPeerChecks.WAIT_S;
    private static final int RPING_PORT = 7174;

    /** rxe's rping client connects to a jroce listener on the host: CONNECT_REQUEST, accept, ESTABLISHED. */
    @Test
    void rpingClientConnectsToJroceListener() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-cm", host, 16, 4096)) {
                RdmaCmId listener = side.listen(PortSpace.TCP, RPING_PORT, 4);
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-client").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-client.pcap"), BOOT);
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, peer);
                    assertSame(listener, req.listenId());
                    RdmaCmId conn = req.id();
                    assertEquals(new InetSocketAddress(host, RPING_PORT), conn.localAddress());
                    assertEquals(peer.ipv4(), conn.peerAddress().getAddress().getHostAddress());
                    side.acceptWithReceive(conn);
                    side.expect(RdmaCmEventType.ESTABLISHED, peer);
                    side.awaitRpingInfo(peer, RUN);
                    conn.disconnect(); // rping then waits for an RDMA READ and a SEND (its protocol, not jroce's)
                    side.expect(RdmaCmEventType.DISCONNECTED, peer);
                    side.expect(RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    GuestResult r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check(); // the CM MADs and the SEND: RoCEv2 to tshark, every ICRC valid
                    assertNoCmDrops(side.dev);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                    conn.qp().close();
                    conn.close();
                    listener.close();
                }
            }
        }
    }

    /**
     * A jroce client connects to rxe's rping server: first to a port nobody listens on (REJ 8 at
     * once, from the kernel's CM), then to rping's: ESTABLISHED on both sides.
     */
    @Test
    void jroceClientConnectsToRpingServer() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer peer = RxePeer.builder().name("rxe-rping-server").network(network)
                 .command("rping -s -a 0.0.0.0 -C 1 -v -d").start()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-cm", host, 16, 4096)) {
                RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-server.pcap"), BOOT);
                peer.awaitOutput("rdma_bind_addr successful", BOOT);
                RdmaCmId refused = side.resolved(PortSpace.TCP, peer.ipv4(), RPING_PORT + 1, side.rcInit(), peer);
                refused.connect(new ConnParam());
                RdmaCmEvent rej = side.expect(RdmaCmEventType.REJECTED, peer);
                assertEquals(8, rej.status(), "REJ invalid service ID");
                refused.qp().close();
                refused.close();

                RdmaCmId id = side.resolved(PortSpace.TCP, peer.ipv4(), RPING_PORT, side.rcInit(), peer);
                id.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(side.mr, 0, 4096)));
                id.connect(new ConnParam());
                side.expect(RdmaCmEventType.ESTABLISHED, peer);
                id.disconnect();
                side.expect(RdmaCmEventType.DISCONNECTED, peer);
                side.expect(RdmaCmEventType.TIMEWAIT_EXIT, peer);
                GuestResult r = peer.awaitExit(RUN);
                cap.stop();
                cap.check();
                assertNoCmDrops(side.dev);
                assertLine(r, "cma_event type RDMA_CM_EVENT_CONNECT_REQUEST");
                assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                id.qp().close();
                id.close();
            }
        }
    }

    /**
     * jroce's listener takes its time to accept: the kernel sends its REQ again (6144 ms later), jroce
     * answers the repeat with an MRA (as cm.c's cm_dup_req_handler does while the consumer has not
     * answered), the kernel waits the MRA's service timeout instead of resending, and the late accept
     * still connects. The test waits for the MRA (a counter), not for a time.
     */
    @Test
    void anMraFromJroceHoldsTheKernelsReqUntilTheLateAccept() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-cm", host, 16, 4096)) {
                RdmaCmId listener = side.listen(PortSpace.TCP, RPING_PORT, 4);
                Path pcap = Path.of("/tmp/cm-rping-mra.pcap");
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-mra").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, pcap, BOOT);
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, peer);
                    RdmaCmId conn = req.id();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
                    while (side.dev.counters().get("cm_tx_mra") == 0) {
                        assertTrue(System.nanoTime() - deadline < 0,
                            "no MRA within " + WAIT_S + " s: " + side.dev.counters());
                        Thread.sleep(50);
                    }
                    assertEquals(2L, side.dev.counters().get("cm_rx_req"), "the kernel's REQ and its one repeat");
                    side.acceptWithReceive(conn);
                    side.expect(RdmaCmEventType.ESTABLISHED, peer);
                    assertEquals(WcStatus.SUCCESS, side.completion(peer).status());
                    assertEquals(2L, side.dev.counters().get("cm_rx_req"),
                        "held by the MRA, the kernel sent no third REQ");
                    assertEquals(1L, side.dev.counters().get("cm_tx_rep"));
                    assertEquals(1L, side.dev.counters().get("cm_rx_rtu"));
                    conn.disconnect();
                    side.expect(RdmaCmEventType.DISCONNECTED, peer);
                    side.expect(RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    GuestResult r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check();
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertNoCmDrops(side.dev);
                    conn.qp().close();
                    conn.close();
                    listener.close();
                    Tshark.ifInstalled().ifPresent(t -> assertMessages(t, pcap,
                        List.of("ConnectRequest", "ConnectRequest", "MsgRcptAck", "ConnectReply", "ReadyToUse")));
                }
            }
        }
    }

    /** rxe's rping client connects to a port of the jroce device where nobody listens: REJ 8 at once. */
    @Test
    void rpingClientToAPortNobodyListensOnIsRejectedWithReason8() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm").address(host).open();
                 RxePeer peer = RxePeer.builder().name("rxe-rping-refused").network(network)
                     .command("rping -c -a " + host + " -p " + (RPING_PORT + 1) + " -C 1 -v -d").start()) {
                GuestResult r = peer.awaitExit(RUN);
                assertLine(r, "cma event RDMA_CM_EVENT_REJECTED, error 8");
                Map<String, Long> c = dev.counters();
                assertTrue(c.get("rcvd_mads") >= 1, "the REQ: " + c);
                assertEquals(c.get("rcvd_mads"), c.get("sent_mads"), "a REJ for each REQ: " + c);
                assertNoCmDrops(dev);
            }
        }
    }

    /**
     * rping killed while connected: the kernel's CM sends a DREQ as it destroys the ID; jroce reports
     * DISCONNECTED, answers with a DREP on disconnect, then TIMEWAIT_EXIT.
     */
    @Test
    void rpingKilledWhileConnectedSendsADreqThatJroceAnswers() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (CmHostSide side = CmHostSide.open("jroce-cm", host, 16, 4096)) {
                RdmaCmId listener = side.listen(PortSpace.TCP, RPING_PORT, 4);
                // rping waits for an RDMA READ that never comes until timeout kills it
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-killed").network(network)
                         .command("timeout 8 rping -c -a " + host + " -C 1 -v -d; sleep 3").start()) {
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, peer);
                    RdmaCmId conn = req.id();
                    side.acceptWithReceive(conn);
                    side.expect(RdmaCmEventType.ESTABLISHED, peer);
                    side.expect(RdmaCmEventType.DISCONNECTED, peer);
                    conn.disconnect(); // the DREP
                    side.expect(RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    GuestResult r = peer.awaitExit(RUN);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertNoCmDrops(side.dev);
                    conn.qp().close();
                    conn.close();
                    listener.close();
                }
            }
        }
    }

    /**
     * IPv6 (GID 2 in the guest): rping's client connects to a jroce listener on the host's global
     * address, then a jroce client connects to rping's server in a second guest.
     */
    @Test
    void rpingAndJroceConnectOverIpv6() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            // The client waits until jroce listens: the host's address is usable once a guest has joined.
            try (RxePeer client = RxePeer.builder().name("rxe-rping-client6").network(network)
                     .command("sleep 12; rping -c -a " + host + " -C 1 -v -d").retryWhileRefused().start();
                 RxePeer server = RxePeer.builder().name("rxe-rping-server6").network(network)
                     .command("rping -s -a :: -C 1 -v -d").start()) {
                client.awaitReady(BOOT);
                try (CmHostSide side = CmHostSide.on(openWhenAddressUsable(host), host, 16, 4096)) {
                    RdmaCmId listener = side.listen(PortSpace.TCP, RPING_PORT, 4);
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, client);
                    RdmaCmId conn = req.id();
                    assertEquals(InetAddress.getByName(client.ipv6().orElseThrow()), conn.peerAddress().getAddress());
                    side.acceptWithReceive(conn);
                    side.expect(RdmaCmEventType.ESTABLISHED, client);
                    WorkCompletion wc = side.completion(client);
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    assertEquals(16, wc.byteLen());
                    conn.disconnect();
                    side.expect(RdmaCmEventType.DISCONNECTED, client);
                    side.expect(RdmaCmEventType.TIMEWAIT_EXIT, client);
                    assertLine(client.awaitExit(RUN), "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    conn.qp().close();
                    conn.close();
                    listener.close();

                    server.awaitOutput("rdma_listen", BOOT);
                    RdmaCmId id = side.resolved(PortSpace.TCP, server.ipv6().orElseThrow(), RPING_PORT, side.rcInit(),
                        server);
                    id.connect(new ConnParam());
                    side.expect(RdmaCmEventType.ESTABLISHED, server);
                    id.disconnect();
                    side.expect(RdmaCmEventType.DISCONNECTED, server);
                    side.expect(RdmaCmEventType.TIMEWAIT_EXIT, server);
                    GuestResult r = server.awaitExit(RUN);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                    assertNoCmDrops(side.dev);
                    id.qp().close();
                    id.close();
                }
            }
        }
    }

    /** Opens the device on the bridge's IPv6 address, which the host can bind only after its duplicate address detection. */
    private static RdmaDevice openWhenAddressUsable(String host) throws InterruptedException {
        long deadline = System.nanoTime() + BOOT.toNanos();
        while (true) {
            try {
                return SoftRnic.builder().name("jroce-cm6").address(host).open();
            } catch (RuntimeException tentative) {
                if (System.nanoTime() - deadline > 0) {
                    throw tentative;
                }
                Thread.sleep(200);
            }
        }
    }
}
