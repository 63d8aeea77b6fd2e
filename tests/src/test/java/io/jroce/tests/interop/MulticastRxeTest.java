package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * RoCE multicast (no MADs) between jroce's RDMA CM and librdmacm's {@code mckey} on real rxe in a
 * guest, both ways: rxe's {@code mckey -s} sends its 10 datagrams to a group a jroce ID joined, and
 * jroce sends 10 datagrams to a group {@code mckey} (receiver) joined, which exits 0 once it got
 * them. Both sides form the MGID ::ffff:&lt;group&gt;, address QPN 0xFFFFFF and use Q_Key 0x01234567.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MulticastRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final long WAIT_S = 180;
    private static final String GROUP = "239.255.80.1";
    /** mckey's defaults: 10 messages of 100 bytes. */
    private static final int MESSAGES = 10;
    private static final int SIZE = 100;
    private static final int GRH = 40;
    private static final int SLOT = 256;
    private static final int RDMA_UDP_QKEY = 0x01234567;
    /** The guest's IPv4 address (the container's, which the guest took over), for mckey's -b. */
    private static final String GUEST_IP = "$(/bin/ip -4 -o addr show dev eth0 | sed 's|.*inet \\([0-9.]*\\)/.*|\\1|')";

    private static RdmaCmEvent expect(RdmaEventChannel ch, RdmaCmEventType type, RxePeer peer) throws InterruptedException {
        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e, "no event within " + WAIT_S + " s\n--- rxe:\n" + String.join("\n", peer.consoleLines()));
        e.ack();
        assertEquals(type, e.type(), e + "\n--- rxe:\n" + String.join("\n", peer.consoleLines()));
        return e;
    }

    /** A UDP ID resolved from {@code host} to the group, with a UD QP, joined: its MULTICAST_JOIN. */
    private static RdmaCmEvent join(RdmaEventChannel ch, RdmaCmId id, String host, ProtectionDomain pd,
                                    CompletionQueue cq, MemoryRegion mr, RxePeer peer) throws InterruptedException {
        id.resolveAddr(new InetSocketAddress(host, 0), new InetSocketAddress(GROUP, 0), 2000);
        expect(ch, RdmaCmEventType.ADDR_RESOLVED, peer);
        id.createQp(pd, new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(MESSAGES).maxRecvWr(MESSAGES + 1));
        for (int i = 0; i < MESSAGES + 1; i++) {
            id.qp().postRecv(new ReceiveWorkRequest().wrId(i).sgList(ScatterGatherEntry.of(mr, (long) i * SLOT,
                GRH + SIZE)));
        }
        id.joinMulticast(new InetSocketAddress(GROUP, 0));
        RdmaCmEvent joined = expect(ch, RdmaCmEventType.MULTICAST_JOIN, peer);
        RdmaUdParam ud = joined.udParam();
        assertEquals(Gid.parse("::ffff:" + GROUP), ud.ahAttr().destGid());
        assertEquals(0xFFFFFF, ud.qpNum());
        assertEquals(RDMA_UDP_QKEY, ud.qkey());
        return joined;
    }

    private static WorkCompletion completion(CompletionQueue cq, RxePeer peer) throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (!cq.poll(wc)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + WAIT_S + " s\n--- rxe:\n"
                    + String.join("\n", peer.consoleLines()));
            }
            Thread.sleep(1);
        }
        return wc;
    }

    /** rxe's {@code mckey -s} sends to the group; the jroce ID that joined it receives the datagrams. */
    @Test
    void jroceReceivesWhatMckeySendsToTheGroup() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-mc").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(4 * MESSAGES);
                MemoryRegion mr = pd.allocateMemory(2 * (MESSAGES + 1) * SLOT, AccessFlags.LOCAL_WRITE);
                RdmaCmId id = ch.createId(PortSpace.UDP);
                try {
                    // The guest is not up yet: the join needs no peer.
                    try (RxePeer peer = RxePeer.builder().name("rxe-mckey-sender").network(network)
                             .command("mckey -s -m " + GROUP + " -b " + GUEST_IP).start()) {
                        join(ch, id, host, pd, cq, mr, peer);
                        GuestResult r = peer.awaitExit(BOOT.plus(RUN));
                        assertEquals(0, r.exitStatus(), r.console());
                        assertLine(r, "data transfers complete");
                        int received = 0;
                        WorkCompletion wc = new WorkCompletion();
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (received < MESSAGES && System.nanoTime() - deadline < 0) {
                            if (!cq.poll(wc)) {
                                Thread.sleep(1);
                                continue;
                            }
                            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                            assertEquals(WcOpcode.RECV, wc.opcode());
                            assertEquals(GRH + SIZE, wc.byteLen());
                            assertTrue(wc.withImm());
                            assertEquals(wc.srcQp(), wc.immData(), "mckey's immediate data is its QPN");
                            byte[] dst = new byte[4];
                            mr.buffer().get((int) wc.wrId() * SLOT + 20 + 16, dst);
                            assertArrayEquals(InetAddress.getByName(GROUP).getAddress(), dst, "GRH: sent to the group");
                            byte[] src = new byte[4];
                            mr.buffer().get((int) wc.wrId() * SLOT + 20 + 12, src);
                            assertEquals(peer.ipv4(), InetAddress.getByAddress(src).getHostAddress());
                            received++;
                        }
                        // mckey posts its sends unsignaled and leaves at once: all 10 leave rxe in practice.
                        assertEquals(MESSAGES, received, "datagrams from mckey; counters " + dev.counters()
                            + "\n--- rxe:\n" + r.console());
                        assertEquals(0L, dev.counters().get("drop_bad_icrc"));
                    }
                } finally {
                    id.close();
                    if (id.qp() != null) {
                        id.qp().close();
                    }
                    mr.close();
                    cq.close();
                    pd.close();
                }
            }
        }
    }

    /** rxe's {@code mckey} (receiver) joins the group; jroce sends its 10 datagrams there; mckey exits 0. */
    @Test
    void mckeyReceivesWhatJroceSendsToTheGroup() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer peer = RxePeer.builder().name("rxe-mckey-receiver").network(network)
                 .command("mckey -m " + GROUP + " -b " + GUEST_IP).start()) {
            String host = network.hostIpv4();
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-mc").address(host).open();
                 RdmaEventChannel ch = RdmaCm.createEventChannel()) {
                ProtectionDomain pd = dev.allocPd();
                CompletionQueue cq = dev.createCq(4 * MESSAGES);
                MemoryRegion mr = pd.allocateMemory(2 * (MESSAGES + 1) * SLOT, AccessFlags.LOCAL_WRITE);
                RdmaCmId id = ch.createId(PortSpace.UDP);
                AddressHandle ah = null;
                try {
                    peer.awaitOutput("mckey: joined dgid", BOOT);
                    RdmaUdParam ud = join(ch, id, host, pd, cq, mr, peer).udParam();
                    ah = pd.createAddressHandle(ud.ahAttr());
                    byte[] message = new byte[SIZE];
                    for (int i = 0; i < SIZE; i++) {
                        message[i] = (byte) i;
                    }
                    int offset = (MESSAGES + 1) * SLOT;
                    mr.buffer().put(offset, message);
                    for (int i = 0; i < MESSAGES; i++) {
                        id.qp().postSend(new SendWorkRequest().wrId(100 + i).opcode(WrOpcode.SEND_WITH_IMM)
                            .immData(id.qp().qpNum()).sendFlags(SendFlags.SIGNALED).ud(ah, ud.qpNum(), ud.qkey())
                            .sgList(ScatterGatherEntry.of(mr, offset, SIZE)));
                    }
                    int sends = 0;
                    while (sends < MESSAGES) {
                        WorkCompletion wc = completion(cq, peer);
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        if (wc.opcode() == WcOpcode.SEND) {
                            sends++;
                        }
                    }
                    GuestResult r = peer.awaitExit(RUN);
                    assertEquals(0, r.exitStatus(), r.console());
                    assertLine(r, "data transfers complete");
                    assertLine(r, "return status 0");
                } finally {
                    id.close();
                    if (ah != null) {
                        ah.close();
                    }
                    if (id.qp() != null) {
                        id.qp().close();
                    }
                    mr.close();
                    cq.close();
                    pd.close();
                }
            }
        }
    }

    private static void assertLine(GuestResult r, String fragment) {
        assertTrue(r.output().stream().anyMatch(l -> l.contains(fragment)), "no \"" + fragment + "\" in\n" + r.console());
    }
}
