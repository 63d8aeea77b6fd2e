package io.jroce.tests.interop;

import static io.jroce.tests.interop.CmPeerChecks.expect;
import static io.jroce.tests.interop.CmPeerChecks.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * rxe's rping client connects to a jroce listener bound to the wildcard (rdma_bind_addr on
 * INADDR_ANY, rping's own server default): the request comes on the device that owns the host's
 * address and is reported there. One guest.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CmWildcardRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final int RPING_PORT = 7174;

    @Test
    void rpingClientConnectsToAJroceWildcardListener() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-any").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                RdmaCmId listener = ch.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress("0.0.0.0", RPING_PORT));
                listener.listen(4);
                assertNull(listener.device());
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-any").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-wildcard.pcap"), BOOT);
                    RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, peer);
                    assertSame(listener, req.listenId());
                    RdmaCmId conn = req.id();
                    assertSame(dev, conn.device(), "the request lives on the device it came on");
                    assertEquals(new InetSocketAddress(host, RPING_PORT), conn.localAddress());
                    assertEquals(peer.ipv4(), conn.peerAddress().getAddress().getHostAddress());
                    conn.createQp(pd, new QpInitAttributes().cq(cq).maxSendWr(8).maxRecvWr(8).maxSendSge(1)
                        .maxRecvSge(1));
                    conn.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, 4096)));
                    conn.accept(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    // rping's first SEND: its buffer's address, rkey and length, as it prints them with -v -d.
                    WorkCompletion wc = completion(cq, peer);
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    assertEquals(WcOpcode.RECV, wc.opcode());
                    assertEquals(16, wc.byteLen());
                    peer.awaitOutput(String.format("RDMA addr %x rkey %x len %d", mr.buffer().getLong(0),
                        mr.buffer().getInt(8), mr.buffer().getInt(12)), RUN);
                    conn.disconnect(); // rping then waits for an RDMA READ and a SEND (its protocol, not jroce's)
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
                    RxePeer.Result r = peer.awaitExit(RUN);
                    cap.stop();
                    cap.check();
                    Map<String, Long> c = dev.counters();
                    for (String name : List.of("drop_bad_mad", "cm_drop_bad_mad", "cm_drop_unmatched",
                        "cm_drop_unexpected")) {
                        assertEquals(0L, c.get(name), name + ": " + c);
                    }
                    assertTrue(r.output().stream().anyMatch(l -> l.contains("cma_event type RDMA_CM_EVENT_ESTABLISHED")),
                        r.console());
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
}
