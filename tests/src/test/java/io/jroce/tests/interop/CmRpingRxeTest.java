package io.jroce.tests.interop;

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
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.testsupport.Tshark;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

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
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                RdmaCmId listener = ch.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress(host, RPING_PORT));
                listener.listen(4);
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-client").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-client.pcap"), BOOT);
                    RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, peer);
                    assertSame(listener, req.listenId());
                    RdmaCmId conn = req.id();
                    assertEquals(new InetSocketAddress(host, RPING_PORT), conn.localAddress());
                    assertEquals(peer.ipv4(), conn.peerAddress().getAddress().getHostAddress());
                    acceptWithReceive(conn, pd, cq, mr);
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    // rping's first SEND over the new connection: its buffer's address, rkey and length
                    // (struct rping_rdma_info, big-endian), as it prints them with -v -d.
                    WorkCompletion wc = completion(cq, peer);
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    assertEquals(WcOpcode.RECV, wc.opcode());
                    assertEquals(16, wc.byteLen());
                    String advertised = String.format("RDMA addr %x rkey %x len %d", mr.buffer().getLong(0),
                        mr.buffer().getInt(8), mr.buffer().getInt(12));
                    peer.awaitOutput(advertised, RUN);
                    conn.disconnect(); // rping then waits for an RDMA READ and a SEND (its protocol, not jroce's)
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    RxePeer.Result r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check(); // the CM MADs and the SEND: RoCEv2 to tshark, every ICRC valid
                    assertNoCmDrops(dev);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                    conn.qp().close();
                    conn.close();
                    listener.close();
                } finally {
                    mr.close();
                    cq.close();
                    pd.close();
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
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                try {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-server.pcap"), BOOT);
                    peer.awaitOutput("rdma_bind_addr successful", BOOT);
                    RdmaCmId refused = resolved(ch, host, peer.ipv4(), RPING_PORT + 1, pd, cq, peer);
                    refused.connect(new ConnParam());
                    RdmaCmEvent rej = expect(ch, RdmaCmEventType.REJECTED, peer);
                    assertEquals(8, rej.status(), "REJ invalid service ID");
                    refused.qp().close();
                    refused.close();

                    RdmaCmId id = resolved(ch, host, peer.ipv4(), RPING_PORT, pd, cq, peer);
                    id.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, 4096)));
                    id.connect(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    id.disconnect();
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    RxePeer.Result r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check();
                    assertNoCmDrops(dev);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_CONNECT_REQUEST");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                    id.qp().close();
                    id.close();
                } finally {
                    mr.close();
                    cq.close();
                    pd.close();
                }
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
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                RdmaCmId listener = ch.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress(host, RPING_PORT));
                listener.listen(4);
                Path pcap = Path.of("/tmp/cm-rping-mra.pcap");
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-mra").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, pcap, BOOT);
                    RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, peer);
                    RdmaCmId conn = req.id();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
                    while (dev.counters().get("cm_tx_mra") == 0) {
                        assertTrue(System.nanoTime() - deadline < 0, "no MRA within " + WAIT_S + " s: " + dev.counters());
                        Thread.sleep(50);
                    }
                    assertEquals(2L, dev.counters().get("cm_rx_req"), "the kernel's REQ and its one repeat");
                    acceptWithReceive(conn, pd, cq, mr);
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    assertEquals(WcStatus.SUCCESS, completion(cq, peer).status());
                    assertEquals(2L, dev.counters().get("cm_rx_req"), "held by the MRA, the kernel sent no third REQ");
                    assertEquals(1L, dev.counters().get("cm_tx_rep"));
                    assertEquals(1L, dev.counters().get("cm_rx_rtu"));
                    conn.disconnect();
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    RxePeer.Result r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check();
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertNoCmDrops(dev);
                    conn.qp().close();
                    conn.close();
                    listener.close();
                    Tshark.ifInstalled().ifPresent(t -> assertMessages(t, pcap,
                        List.of("ConnectRequest", "ConnectRequest", "MsgRcptAck", "ConnectReply", "ReadyToUse")));
                } finally {
                    mr.close();
                    cq.close();
                    pd.close();
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
                RxePeer.Result r = peer.awaitExit(RUN);
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
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                RdmaCmId listener = ch.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress(host, RPING_PORT));
                listener.listen(4);
                // rping waits for an RDMA READ that never comes until timeout kills it
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-killed").network(network)
                         .command("timeout 8 rping -c -a " + host + " -C 1 -v -d; sleep 3").start()) {
                    RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, peer);
                    RdmaCmId conn = req.id();
                    acceptWithReceive(conn, pd, cq, mr);
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    conn.disconnect(); // the DREP
                    expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    RxePeer.Result r = peer.awaitExit(RUN);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertNoCmDrops(dev);
                    conn.qp().close();
                    conn.close();
                    listener.close();
                } finally {
                    mr.close();
                    cq.close();
                    pd.close();
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
                try (RdmaDevice dev = openWhenAddressUsable(host);
                     RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                    ProtectionDomain pd = dev.allocPd();
                    CompletionQueue cq = dev.createCq(16);
                    MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                    try {
                        RdmaCmId listener = ch.createId(PortSpace.TCP);
                        listener.bindAddr(new InetSocketAddress(host, RPING_PORT));
                        listener.listen(4);
                        RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, client);
                        RdmaCmId conn = req.id();
                        assertEquals(InetAddress.getByName(client.ipv6().orElseThrow()), conn.peerAddress().getAddress());
                        acceptWithReceive(conn, pd, cq, mr);
                        expect(ch, RdmaCmEventType.ESTABLISHED, client);
                        WorkCompletion wc = completion(cq, client);
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        assertEquals(16, wc.byteLen());
                        conn.disconnect();
                        expect(ch, RdmaCmEventType.DISCONNECTED, client);
                        expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, client);
                        assertLine(client.awaitExit(RUN), "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                        conn.qp().close();
                        conn.close();
                        listener.close();

                        server.awaitOutput("rdma_listen", BOOT);
                        RdmaCmId id = resolved(ch, host, server.ipv6().orElseThrow(), RPING_PORT, pd, cq, server);
                        id.connect(new ConnParam());
                        expect(ch, RdmaCmEventType.ESTABLISHED, server);
                        id.disconnect();
                        expect(ch, RdmaCmEventType.DISCONNECTED, server);
                        expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, server);
                        RxePeer.Result r = server.awaitExit(RUN);
                        assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                        assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                        assertNoCmDrops(dev);
                        id.qp().close();
                        id.close();
                    } finally {
                        mr.close();
                        cq.close();
                        pd.close();
                    }
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

    /** An ID resolved from {@code host} to {@code guest:port} with its RC QP. */
    private static RdmaCmId resolved(RdmaEventChannel ch, String host, String guest, int port, ProtectionDomain pd,
                                     CompletionQueue cq, RxePeer peer) throws InterruptedException {
        RdmaCmId id = ch.createId(PortSpace.TCP);
        id.resolveAddr(new InetSocketAddress(host, 0), new InetSocketAddress(guest, port), 2000);
        expect(ch, RdmaCmEventType.ADDR_RESOLVED, peer);
        id.resolveRoute(2000);
        expect(ch, RdmaCmEventType.ROUTE_RESOLVED, peer);
        id.createQp(pd, qpInit(cq));
        return id;
    }

    /** The passive side's QP for {@code conn}, one receive posted for rping's first SEND, and the accept (REP). */
    private static void acceptWithReceive(RdmaCmId conn, ProtectionDomain pd, CompletionQueue cq, MemoryRegion mr) {
        conn.createQp(pd, qpInit(cq));
        conn.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, 4096)));
        conn.accept(new ConnParam());
    }

    private static QpInitAttributes qpInit(CompletionQueue cq) {
        return new QpInitAttributes().cq(cq).maxSendWr(8).maxRecvWr(8).maxSendSge(1).maxRecvSge(1);
    }
}
