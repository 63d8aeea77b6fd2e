package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnectionRejectedException;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;

/**
 * jroce's convenience layer (RdmaCm.getAddrInfo / createEp, RdmaEndpoint) against librdmacm's own
 * examples on rxe, in one guest: rdma_client connects to a jroce endpoint listening on the host, then
 * a jroce endpoint connects to rdma_server. Each side sends 16 bytes and receives 16 (theirs are
 * zeros: rdma_client.c and rdma_server.c send an untouched static buffer); both programs must end
 * with status 0, which they do only after their receive and their send completed.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CmEndpointRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final String PORT = "7471"; // rdma_server's and rdma_client's default
    private static final int MESSAGE = 16;

    @Test
    void rdmaClientAndRdmaServerTalkToJroceEndpoints() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            QpInitAttributes qp = new QpInitAttributes().maxSendWr(4).maxRecvWr(4);
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-ep").address(host).open();
                 RdmaEndpoint listener = RdmaCm.createEp(RdmaCm.getAddrInfo(host, PORT,
                     new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE)), null, qp)) {
                listener.timeout(BOOT).listen(1);
                try (RxePeer peer = RxePeer.builder().name("rxe-rdma-examples").network(network)
                         .command("rdma_client -s " + host + " -p " + PORT + " && rdma_server -p " + PORT).start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-endpoint-rdma-examples.pcap"), BOOT);
                    // rxe's rdma_client against a jroce server
                    byte[] fromClient = serve(listener, "jroce server 16");
                    assertArrayEquals(new byte[MESSAGE], fromClient, "rdma_client's 16-byte SEND");
                    peer.awaitOutput("rdma_client: end 0", RUN);

                    // a jroce client against rxe's rdma_server
                    peer.awaitOutput("rdma_server: start", RUN);
                    byte[] fromServer = connect(host, peer.ipv4(), "jroce client 16");
                    assertArrayEquals(new byte[MESSAGE], fromServer, "rdma_server's 16-byte SEND");
                    GuestResult r = peer.awaitExit(RUN);
                    assertEquals(0, r.exitStatus(), r.console());
                    assertTrue(r.output().stream().anyMatch(l -> l.contains("rdma_server: end 0")), r.console());
                    cap.stop();
                    cap.check(); // the CM MADs and the SENDs: RoCEv2 to tshark, every ICRC valid
                    Map<String, Long> c = dev.counters();
                    for (String malformed : List.of("drop_bad_mad", "drop_unsupported_mad", "cm_drop_bad_mad")) {
                        assertEquals(0L, c.get(malformed), malformed + ": " + c);
                    }
                }
            }
        }
    }

    /** rdma_server's peer: a receive, accept, rdma_client's SEND first, then ours. */
    private static byte[] serve(RdmaEndpoint listener, String reply) {
        try (RdmaEndpoint conn = listener.getRequest();
             MemoryRegion mr = conn.regMsgs(ByteBuffer.allocateDirect(2 * MESSAGE))) {
            WorkCompletion wc = new WorkCompletion();
            conn.postRecv(1, mr, 0, MESSAGE);
            conn.accept();
            ok(conn.getRecvComp(wc), WcOpcode.RECV);
            assertEquals(MESSAGE, wc.byteLen());
            mr.buffer().put(MESSAGE, reply.getBytes(StandardCharsets.US_ASCII));
            conn.postSend(2, mr, MESSAGE, MESSAGE, SendFlags.SIGNALED);
            ok(conn.getSendComp(wc), WcOpcode.SEND); // acknowledged: in rdma_client's receive buffer
            conn.disconnect();
            return bytes(mr, 0);
        }
    }

    /**
     * rdma_client's part against rdma_server: a receive, connect, our SEND, then theirs. The server
     * listens a moment after it prints its start line: a REJ 8 before that is retried.
     */
    private static byte[] connect(String host, String guest, String message) throws InterruptedException {
        RdmaAddrInfo res = RdmaCm.getAddrInfo(guest, PORT,
            new RdmaAddrInfo().srcAddress(new InetSocketAddress(host, 0)));
        QpInitAttributes qp = new QpInitAttributes().maxSendWr(4).maxRecvWr(4);
        for (int attempt = 1; ; attempt++) {
            try (RdmaEndpoint ep = RdmaCm.createEp(res, null, qp);
                 MemoryRegion mr = ep.regMsgs(ByteBuffer.allocateDirect(2 * MESSAGE))) {
                WorkCompletion wc = new WorkCompletion();
                ep.postRecv(1, mr, 0, MESSAGE);
                try {
                    ep.connect();
                } catch (ConnectionRejectedException notYetListening) {
                    if (notYetListening.reason() != ConnectionRejectedException.INVALID_SERVICE_ID || attempt == 50) {
                        throw notYetListening;
                    }
                    Thread.sleep(200);
                    continue;
                }
                mr.buffer().put(MESSAGE, message.getBytes(StandardCharsets.US_ASCII));
                ep.postSend(2, mr, MESSAGE, MESSAGE, SendFlags.SIGNALED);
                ok(ep.getSendComp(wc), WcOpcode.SEND);
                ok(ep.getRecvComp(wc), WcOpcode.RECV);
                assertEquals(MESSAGE, wc.byteLen());
                ep.disconnect();
                return bytes(mr, 0);
            }
        }
    }

    private static void ok(WorkCompletion wc, WcOpcode opcode) {
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(opcode, wc.opcode(), wc.toString());
    }

    private static byte[] bytes(MemoryRegion mr, int offset) {
        byte[] b = new byte[MESSAGE];
        mr.buffer().get(offset, b);
        return b;
    }
}
