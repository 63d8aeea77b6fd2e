package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.McJoinFlag;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * rdma_join_multicast / rdma_leave_multicast over real UDP sockets, as mckey uses them: UDP IDs on one
 * device join a group, their QPs are attached, and a UD SEND to the MULTICAST_JOIN's address vector
 * (the group, QPN 0xFFFFFF) leaves the device's socket for the IP group and comes back (multicast
 * loop) through the device's group socket to every attached QP. Needs an interface that is up, has
 * carrier and is multicast-capable (loopback is not): skipped without one, failed under CI=true.
 */
class RdmaCmMulticastUdpTest {
    private static final String GROUP = "239.255.77.1";
    private static final int RDMA_UDP_QKEY = 0x01234567;
    private static final long WAIT_S = 30;

    private RdmaDevice dev;
    private RdmaEventChannel ch;
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private MemoryRegion mr;
    private String address;
    private final List<RdmaCmId> ids = new ArrayList<>();
    private final List<AddressHandle> ahs = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        address = multicastCapableIpv4();
        // Under CI a missing prerequisite fails; elsewhere (a laptop offline) the test skips, saying why.
        if (address == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("CI=true: no multicast-capable IPv4 interface that is up with carrier");
        }
        assumeTrue(address != null, "no multicast-capable IPv4 interface with carrier");
        dev = SoftRnic.builder().name("mc").address(address).udpPort(freePort(address)).open();
        ch = RdmaCm.createEventChannel();
        pd = dev.allocPd();
        cq = dev.createCq(64);
        mr = pd.allocateMemory(1 << 14, AccessFlags.LOCAL_WRITE);
    }

    @AfterEach
    void close() {
        if (dev == null) {
            return;
        }
        for (RdmaCmId id : ids) {
            id.close();
            if (id.qp() != null) {
                id.qp().close();
            }
        }
        ahs.forEach(AddressHandle::close);
        mr.close();
        cq.close();
        pd.close();
        dev.close();
    }

    /** Linux: the interface of the IPv4 default route (/proc/net/route), or null. */
    static String defaultRouteInterface() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/route"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 1 && f[1].equals("00000000")) {
                    return f[0];
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    static String multicastCapableIpv4() throws Exception {
        // The interface of the default route first: other interfaces may come and go (test networks).
        java.util.List<java.net.NetworkInterface> all = new java.util.ArrayList<>(
            java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()));
        String defaultRoute = defaultRouteInterface();
        all.sort(java.util.Comparator.comparing(ni -> !ni.getName().equals(defaultRoute)));
        for (NetworkInterface ni : all) {
            Path state = Path.of("/sys/class/net", ni.getName(), "operstate");
            boolean carrier = !Files.exists(state) || Files.readString(state).trim().equals("up");
            if (!ni.isUp() || ni.isLoopback() || !ni.supportsMulticast() || !carrier) {
                continue;
            }
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }

    private static int freePort(String address) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }

    private RdmaCmEvent expect(RdmaCmEventType type) throws InterruptedException {
        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e, "no event within " + WAIT_S + " s, expected " + type);
        e.ack();
        assertEquals(type, e.type(), e.toString());
        return e;
    }

    /** A UDP ID resolved from the device's address to the group, as mckey does, with a UD QP. */
    private RdmaCmId member() throws InterruptedException {
        RdmaCmId id = ch.createId(PortSpace.UDP);
        ids.add(id);
        id.resolveAddr(new InetSocketAddress(address, 0), new InetSocketAddress(GROUP, 0), 2000);
        expect(RdmaCmEventType.ADDR_RESOLVED);
        id.createQp(pd, new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(8).maxRecvWr(8));
        return id;
    }

    private Map<Integer, WorkCompletion> completions(int n) throws InterruptedException {
        Map<Integer, WorkCompletion> byQp = new TreeMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (byQp.size() < n) {
            WorkCompletion wc = new WorkCompletion();
            if (cq.poll(wc)) {
                if (wc.opcode() == WcOpcode.RECV) {
                    byQp.put(wc.qpNum(), wc);
                }
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("only " + byQp.size() + " of " + n + " receives within " + WAIT_S + " s: "
                    + dev.counters());
            }
            Thread.sleep(1);
        }
        return byQp;
    }

    private void send(RdmaCmId from, RdmaUdParam ud, byte[] message) {
        mr.buffer().put(8192, message);
        AddressHandle ah = pd.createAddressHandle(ud.ahAttr());
        ahs.add(ah);
        from.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .ud(ah, ud.qpNum(), ud.qkey()).sgList(ScatterGatherEntry.of(mr, 8192, message.length)));
    }

    @Test
    void joinedIdsReceiveWhatIsSentToTheGroupUntilTheyLeave() throws Exception {
        RdmaCmId a = member();
        RdmaCmId b = member();
        InetSocketAddress group = new InetSocketAddress(GROUP, 0);
        a.joinMulticast(group);
        RdmaCmEvent joined = expect(RdmaCmEventType.MULTICAST_JOIN);
        assertSame(a, joined.id());
        assertEquals(0, joined.status());
        RdmaUdParam ud = joined.udParam();
        assertEquals(Gid.parse("::ffff:" + GROUP), ud.ahAttr().destGid(), "cma_iboe_set_mgid for RoCEv2");
        assertEquals(0xFFFFFF, ud.qpNum());
        assertEquals(RDMA_UDP_QKEY, ud.qkey());
        b.joinMulticast(group);
        expect(RdmaCmEventType.MULTICAST_JOIN);
        assertThrows(InvalidStateException.class, () -> b.joinMulticast(group), "joined already");
        int slot = 0;
        for (RdmaCmId id : new RdmaCmId[] {a, b, a, b}) {
            id.qp().postRecv(new ReceiveWorkRequest().wrId(slot).sgList(ScatterGatherEntry.of(mr, 1024 * slot++, 1024)));
        }

        byte[] hello = "to the group".getBytes(StandardCharsets.US_ASCII);
        send(a, ud, hello);
        Map<Integer, WorkCompletion> got = completions(2);
        assertEquals(List.of(a.qp().qpNum(), b.qp().qpNum()).stream().sorted().toList(), List.copyOf(got.keySet()),
            "the sender's own QP is attached too: the group's datagram loops back to it");
        for (WorkCompletion wc : got.values()) {
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(a.qp().qpNum(), wc.srcQp());
            assertEquals(40 + hello.length, wc.byteLen());
            int at = 1024 * (int) wc.wrId();
            byte[] data = new byte[hello.length];
            mr.buffer().get(at + 40, data);
            assertArrayEquals(hello, data);
            ByteBuffer grh = mr.buffer().order(ByteOrder.BIG_ENDIAN);
            assertEquals(ByteBuffer.wrap(InetAddress.getByName(GROUP).getAddress()).getInt(), grh.getInt(at + 36),
                "the GRH's destination is the group");
        }

        b.leaveMulticast(group);
        assertThrows(InvalidAttributeException.class, () -> b.leaveMulticast(group), "EADDRNOTAVAIL");
        send(a, ud, hello);
        Map<Integer, WorkCompletion> second = completions(1);
        assertEquals(List.of(a.qp().qpNum()), List.copyOf(second.keySet()));
        WorkCompletion none = new WorkCompletion();
        while (cq.poll(none)) {
            assertFalse(none.opcode() == WcOpcode.RECV, "b left the group: " + none);
        }
    }

    /**
     * rdma_join_multicast_ex with RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER (mckey -o): the same
     * MULTICAST_JOIN, but no QP attached and, as the kernel's cma_iboe_join_multicast on RoCE, no IGMP
     * membership on the host (/proc/net/igmp has none for the group) while the send-only member is the
     * device's only one; its sends reach the full member and never come back to it. A full join
     * afterwards does show in /proc/net/igmp (the check can fail).
     */
    @Test
    void aSendOnlyMemberSendsToTheGroupButTakesNoMembershipAndReceivesNothing() throws Exception {
        String sendOnlyGroup = "239.255.77.2";
        InetSocketAddress group = new InetSocketAddress(sendOnlyGroup, 0);
        RdmaCmId s = ch.createId(PortSpace.UDP);
        ids.add(s);
        s.resolveAddr(new InetSocketAddress(address, 0), group, 2000);
        expect(RdmaCmEventType.ADDR_RESOLVED);
        s.createQp(pd, new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(8).maxRecvWr(8));
        assertThrows(InvalidAttributeException.class, () -> s.joinMulticast(group, null));
        s.joinMulticast(group, McJoinFlag.SENDONLY_FULLMEMBER);
        RdmaCmEvent joined = expect(RdmaCmEventType.MULTICAST_JOIN);
        assertSame(s, joined.id());
        assertEquals(0, joined.status());
        RdmaUdParam ud = joined.udParam();
        assertEquals(Gid.parse("::ffff:" + sendOnlyGroup), ud.ahAttr().destGid());
        assertEquals(0xFFFFFF, ud.qpNum());
        assertEquals(RDMA_UDP_QKEY, ud.qkey());
        assertFalse(igmpMember(sendOnlyGroup), "a send-only member takes no IGMP membership");
        assertThrows(InvalidAttributeException.class, () -> s.qp().detachMcast(ud.ahAttr().destGid(), 0),
            "the send-only member's QP is not attached");

        // A full member on the same device: the device joins the group, and the send-only member's
        // datagrams loop back to the full member only.
        RdmaCmId r = ch.createId(PortSpace.UDP);
        ids.add(r);
        r.resolveAddr(new InetSocketAddress(address, 0), group, 2000);
        expect(RdmaCmEventType.ADDR_RESOLVED);
        r.createQp(pd, new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(8).maxRecvWr(8));
        r.joinMulticast(group);
        expect(RdmaCmEventType.MULTICAST_JOIN);
        assertTrue(igmpMember(sendOnlyGroup), "a full member's device joins the group (IGMP)");
        s.qp().postRecv(new ReceiveWorkRequest().wrId(0).sgList(ScatterGatherEntry.of(mr, 0, 1024)));
        r.qp().postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mr, 1024, 1024)));
        r.qp().postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(mr, 2048, 1024)));
        byte[] hello = "send-only".getBytes(StandardCharsets.US_ASCII);
        send(s, ud, hello);
        Map<Integer, WorkCompletion> got = completions(1);
        assertEquals(List.of(r.qp().qpNum()), List.copyOf(got.keySet()));
        assertEquals(s.qp().qpNum(), got.get(r.qp().qpNum()).srcQp());
        s.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .ud(ahs.get(0), ud.qpNum(), ud.qkey()).sgList(ScatterGatherEntry.of(mr, 8192, hello.length)));
        assertEquals(List.of(r.qp().qpNum()), List.copyOf(completions(1).keySet()), "the second datagram too");
        WorkCompletion none = new WorkCompletion();
        while (cq.poll(none)) {
            assertFalse(none.opcode() == WcOpcode.RECV, "the send-only member received: " + none);
        }
        r.leaveMulticast(group);
        s.leaveMulticast(group);
        assertFalse(igmpMember(sendOnlyGroup), "the full member left: no membership");
    }

    /** Whether a host interface is a member of {@code group} (IPv4): /proc/net/igmp lists it. */
    private static boolean igmpMember(String group) throws Exception {
        int be = ByteBuffer.wrap(InetAddress.getByName(group).getAddress()).getInt();
        String hex = String.format("%08X", Integer.reverseBytes(be)); // the __be32 printed as a host int
        return Files.readAllLines(Path.of("/proc/net/igmp")).stream().anyMatch(l -> l.trim().startsWith(hex));
    }

    @Test
    void joinNeedsAUdpIdWithAnAddressAndAMulticastGroup() throws Exception {
        RdmaCmId unbound = ch.createId(PortSpace.UDP);
        ids.add(unbound);
        assertThrows(InvalidStateException.class, () -> unbound.joinMulticast(new InetSocketAddress(GROUP, 0)));
        RdmaCmId tcp = ch.createId(PortSpace.TCP);
        ids.add(tcp);
        tcp.bindAddr(new InetSocketAddress(address, 0));
        assertThrows(InvalidAttributeException.class, () -> tcp.joinMulticast(new InetSocketAddress(GROUP, 0)));
        RdmaCmId id = member();
        assertThrows(InvalidAttributeException.class, () -> id.joinMulticast(new InetSocketAddress(address, 0)));
        assertThrows(InvalidAttributeException.class, () -> id.joinMulticast(new InetSocketAddress("ff0e::1", 0)),
            "an IPv6 group for an IPv4 ID");
    }

    @Test
    void closingTheIdDetachesItsQp() throws Exception {
        RdmaCmId a = member();
        a.joinMulticast(new InetSocketAddress(GROUP, 0));
        RdmaUdParam ud = expect(RdmaCmEventType.MULTICAST_JOIN).udParam();
        QueuePair qp = a.qp();
        a.close();
        assertThrows(InvalidAttributeException.class, () -> qp.detachMcast(ud.ahAttr().destGid(), 0),
            "rdma_destroy_id left the group: the QP is no longer attached");
    }
}
