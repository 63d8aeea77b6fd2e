package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static io.jroce.tests.interop.CmPeerChecks.expect;
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

import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;

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
            try (CmHostSide side = CmHostSide.open("jroce-any", host, 16, 4096)) {
                RdmaCmId listener = side.listen(PortSpace.TCP, new InetSocketAddress("0.0.0.0", RPING_PORT), 4);
                assertNull(listener.device());
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-any").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d").start()) {
                    RoceCapture cap = RoceCapture.onGuestTap(peer, Path.of("/tmp/cm-rping-wildcard.pcap"), BOOT);
                    RdmaCmEvent req = side.expect(RdmaCmEventType.CONNECT_REQUEST, peer);
                    assertSame(listener, req.listenId());
                    RdmaCmId conn = req.id();
                    assertSame(side.dev, conn.device(), "the request lives on the device it came on");
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
                    cap.check();
                    Map<String, Long> c = side.dev.counters();
                    for (String name : List.of("drop_bad_mad", "cm_drop_bad_mad", "cm_drop_unmatched",
                        "cm_drop_unexpected")) {
                        assertEquals(0L, c.get(name), name + ": " + c);
                    }
                    assertTrue(r.output().stream().anyMatch(l -> l.contains("cma_event type RDMA_CM_EVENT_ESTABLISHED")),
                        r.console());
                    conn.qp().close();
                    conn.close();
                    listener.close();
                }
            }
        }
    }
}
