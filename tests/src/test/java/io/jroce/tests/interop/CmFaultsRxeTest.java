package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static io.jroce.tests.interop.CmPeerChecks.expect;
import static io.jroce.tests.interop.CmPeerChecks.completion;
import static io.jroce.tests.interop.CmPeerChecks.assertNoCmDrops;
import static io.jroce.tests.interop.CmPeerChecks.assertLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.stack.fault.FaultPolicy;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
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
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * jroce's CM messages lost on their way to the Linux kernel's CM (rxe, librdmacm's rping), by fault
 * rules on what the jroce device sends: every connection still comes up and goes down, by the
 * retransmissions both sides make. One guest per role, several connections per guest where rping allows
 * (a persistent server).
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CmFaultsRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final long WAIT_S = CmPeerChecks.WAIT_S;
    private static final int RPING_PORT = 7174;

    /**
     * jroce connects three times to a persistent rping server:
     * (1) its first REQ is lost: sent again after 6144 ms (2 * conv(18) + conv(20)), the connection comes up;
     * (2) its RTU is lost: the kernel's REP comes again after conv(20) = 4096 ms (its REP timer, from our REQ),
     * jroce answers the repeat with the RTU again (cm_dup_rep_handler's answer), the kernel's side is established;
     * (3) its DREQ is lost: sent again after 6144 ms, the kernel answers with the DREP, DISCONNECTED and
     * TIMEWAIT_EXIT follow.
     */
    @Test
    void jroceClientRecoversItsLostReqRtuAndDreqAgainstRping() throws Exception {
        FaultPolicy faults = new FaultPolicy(1);
        FaultRule firstReq = faults.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_REQ)).occurrence(1)
            .named("drop the 1st REQ"));
        FaultRule secondRtu = faults.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_RTU)).occurrence(2)
            .named("drop the 2nd connection's RTU"));
        FaultRule thirdDreq = faults.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_DREQ)).occurrence(3)
            .named("drop the 3rd connection's DREQ"));
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer peer = RxePeer.builder().name("rxe-rping-persistent").network(network)
                 .command("rping -s -a 0.0.0.0 -P -v -d").start()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm-faults").address(host).faults(faults, null).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                try {
                    peer.awaitOutput("rdma_listen", BOOT);

                    // (1) The first REQ is lost.
                    RdmaCmId one = resolved(ch, host, peer, pd, cq);
                    long start = System.nanoTime();
                    one.connect(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertEquals(1, firstReq.applied());
                    assertTrue(tookMs >= 6144, "the REQ came again only after 6144 ms, took " + tookMs + " ms");
                    assertEquals(1L, dev.counters().get("cm_retransmits"), dev.counters().toString());
                    disconnectAndWait(one, ch, peer);
                    assertEquals(1L, dev.counters().get("cm_retransmits"), "the 1st DREQ needed none");

                    // (2) The RTU is lost: the kernel's REP comes again and is answered with the RTU again.
                    long repsBefore = dev.counters().get("rcvd_mads");
                    RdmaCmId two = resolved(ch, host, peer, pd, cq);
                    two.connect(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer); // jroce's side: it sent its RTU
                    assertEquals(1, secondRtu.applied());
                    awaitLines(peer, "RDMA_CM_EVENT_ESTABLISHED", 2); // the kernel's: the second RTU arrived
                    assertEquals(repsBefore + 2, dev.counters().get("rcvd_mads"), "the REP and its repeat");
                    assertEquals(0L, dev.counters().get("cm_drop_unexpected"), "the repeat was answered, not dropped");
                    disconnectAndWait(two, ch, peer);

                    // (3) The DREQ is lost.
                    RdmaCmId three = resolved(ch, host, peer, pd, cq);
                    three.connect(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    awaitLines(peer, "RDMA_CM_EVENT_ESTABLISHED", 3);
                    long before = dev.counters().get("cm_retransmits");
                    start = System.nanoTime();
                    disconnectAndWait(three, ch, peer);
                    tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertEquals(1, thirdDreq.applied());
                    assertTrue(tookMs >= 6144, "the DREQ came again only after 6144 ms, took " + tookMs + " ms");
                    assertEquals(before + 1, dev.counters().get("cm_retransmits"));
                    awaitLines(peer, "RDMA_CM_EVENT_DISCONNECTED", 3);
                    assertNoCmDrops(dev);
                } finally {
                    closeAfterwards(cq, pd);
                }
            }
        }
    }

    /**
     * rping's client connects to a jroce listener whose REP is lost: jroce's REP timer (conv of the REQ's
     * local CM response timeout 20: 4096 ms, before the kernel's REQ comes again at 6144) sends it again,
     * the kernel answers with the RTU; then jroce's DREQ is lost too and sent again after 4096 ms.
     * Then a second rping client is killed while its REQ is unanswered: the kernel destroys the ID and
     * withdraws the REQ with REJ 4 carrying its CA GUID (cm_destroy_id), which jroce matches by that GUID
     * (cm_acquire_rejected_id) and reports as REJECTED, status 4, on the unanswered request's ID.
     */
    @Test
    void jroceListenerRecoversItsLostRepAndDreqAgainstRping() throws Exception {
        FaultPolicy faults = new FaultPolicy(2);
        FaultRule firstRep = faults.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_REP)).occurrence(1)
            .named("drop the 1st REP"));
        FaultRule firstDreq = faults.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_DREQ)).occurrence(1)
            .named("drop the 1st DREQ"));
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-cm-faults").address(host).faults(faults, null).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(16);
                MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                RdmaCmId listener = ch.createId(PortSpace.TCP);
                listener.bindAddr(new InetSocketAddress(host, RPING_PORT));
                listener.listen(4);
                try (RxePeer peer = RxePeer.builder().name("rxe-rping-client-faults").network(network)
                         .command("rping -c -a " + host + " -C 1 -v -d; timeout 3 rping -c -a " + host + " -C 1 -v -d")
                         .start()) {
                    RdmaCmEvent req = expect(ch, RdmaCmEventType.CONNECT_REQUEST, peer);
                    RdmaCmId conn = req.id();
                    conn.createQp(pd, qpInit(cq));
                    conn.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 0, 4096)));
                    long start = System.nanoTime();
                    conn.accept(new ConnParam());
                    expect(ch, RdmaCmEventType.ESTABLISHED, peer);
                    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertEquals(1, firstRep.applied());
                    assertTrue(tookMs >= 4096, "the REP came again only after 4096 ms, took " + tookMs + " ms");
                    assertEquals(1L, dev.counters().get("cm_retransmits"));
                    // rping's first SEND over the connection: the kernel's side is established too.
                    WorkCompletion wc = completion(cq, peer);
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                    assertEquals(16, wc.byteLen());

                    start = System.nanoTime();
                    conn.disconnect();
                    expect(ch, RdmaCmEventType.DISCONNECTED, peer);
                    tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertEquals(1, firstDreq.applied());
                    assertTrue(tookMs >= 4096, "the DREQ came again only after 4096 ms, took " + tookMs + " ms");
                    // The second client's REQ may come before the first connection's TimeWait ends: the
                    // next two events of the channel are these two, in either order. The REQ stays
                    // unanswered until rping is killed (3 s, before its REQ would come again at 6144 ms).
                    RdmaCmEvent unanswered = null;
                    boolean timeWaitExit = false;
                    for (int i = 0; i < 2; i++) {
                        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
                        assertNotNull(e, "no event within " + WAIT_S + " s\n--- rxe:\n"
                            + String.join("\n", peer.consoleLines()));
                        e.ack();
                        if (e.type() == RdmaCmEventType.TIMEWAIT_EXIT && e.id() == conn) {
                            timeWaitExit = true;
                        } else {
                            assertEquals(RdmaCmEventType.CONNECT_REQUEST, e.type(), e.toString());
                            unanswered = e;
                        }
                    }
                    assertTrue(timeWaitExit && unanswered != null);
                    assertEquals(2L, dev.counters().get("cm_retransmits"), "the REP and the DREQ, once each");
                    RdmaCmEvent withdrawn = expect(ch, RdmaCmEventType.REJECTED, peer);
                    assertEquals(unanswered.id(), withdrawn.id());
                    assertEquals(4, withdrawn.status(), "REJ 4 (timeout): the kernel destroyed its connecting ID");
                    unanswered.id().close();
                    GuestResult r = peer.awaitExit(RUN);
                    assertLine(r, "cma_event type RDMA_CM_EVENT_ESTABLISHED");
                    assertLine(r, "cma_event type RDMA_CM_EVENT_DISCONNECTED");
                    Map<String, Long> c = dev.counters();
                    // A REQ the kernel repeated before our second REP reached it would be a counted repeat;
                    // nothing may be malformed or unmatched.
                    for (String name : List.of("cm_drop_bad_mad", "cm_drop_unmatched", "drop_bad_mad")) {
                        assertEquals(0L, c.get(name), name + ": " + c);
                    }
                    conn.qp().close();
                    conn.close();
                    listener.close();
                } finally {
                    closeAfterwards(mr, cq, pd);
                }
            }
        }
    }

    /**
     * Closes what a test opened; a failure to close (QPs still open after an assertion failed) must not
     * hide the assertion, so it is only printed.
     */
    private static void closeAfterwards(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                System.err.println("not closed after a failure: " + e);
            }
        }
    }

    private static void disconnectAndWait(RdmaCmId id, RdmaEventChannel ch, RxePeer peer) throws InterruptedException {
        id.disconnect();
        expect(ch, RdmaCmEventType.DISCONNECTED, peer);
        expect(ch, RdmaCmEventType.TIMEWAIT_EXIT, peer);
        id.qp().close();
        id.close();
    }

    private static RdmaCmId resolved(RdmaEventChannel ch, String host, RxePeer peer, ProtectionDomain pd,
                                     CompletionQueue cq) throws InterruptedException {
        RdmaCmId id = ch.createId(PortSpace.TCP);
        id.resolveAddr(new InetSocketAddress(host, 0), new InetSocketAddress(peer.ipv4(), RPING_PORT), 2000);
        expect(ch, RdmaCmEventType.ADDR_RESOLVED, peer);
        id.resolveRoute(2000);
        expect(ch, RdmaCmEventType.ROUTE_RESOLVED, peer);
        id.createQp(pd, qpInit(cq));
        return id;
    }

    private static QpInitAttributes qpInit(CompletionQueue cq) {
        return new QpInitAttributes().cq(cq).maxSendWr(8).maxRecvWr(8).maxSendSge(1).maxRecvSge(1);
    }

    /** Waits until rping has printed {@code n} console lines containing {@code fragment}. */
    private static void awaitLines(RxePeer peer, String fragment, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (peer.consoleLines().stream().filter(l -> l.contains(fragment)).count() < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(n + " lines with \"" + fragment + "\" expected\n--- rxe:\n"
                    + String.join("\n", peer.consoleLines()));
            }
            Thread.sleep(50);
        }
    }
}
