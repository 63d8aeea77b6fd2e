package io.jroce.tests.cm;

import static io.jroce.tests.cm.CmUdpPair.WAIT_S;
import static io.jroce.tests.cm.CmUdpPair.expect;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tests.cm.CmUdpPair.Side;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
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
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEndpoint;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * One listener bound to the wildcard (rping's default {@code rdma_bind_addr} on INADDR_ANY) takes the
 * requests of every device: devices on 127.0.0.1 and 127.0.0.3, a client on 127.0.0.2, all on one free
 * UDP port (see RdmaCmUdpTest). Each test uses its own service port, so that an ID a failed test
 * leaves bound cannot make another's bind fail.
 */
class RdmaCmWildcardUdpTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final int udpPort = CmUdpPair.freePort();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Map<RdmaDevice, Side> sides = new HashMap<>();
    private final RdmaDevice clientDev = open("cli", "127.0.0.2");
    private final RdmaEventChannel serverCh = RdmaCm.createEventChannel();
    private final RdmaEventChannel clientCh = RdmaCm.createEventChannel();

    /** A device on {@code addresses} with the test's UDP port; its side and the device are closed after the test. */
    private RdmaDevice open(String name, String... addresses) {
        SoftRnic.Builder b = SoftRnic.builder().name(name).udpPort(udpPort);
        for (String a : addresses) {
            b.address(a);
        }
        RdmaDevice d = b.open();
        Side s = new Side(d, ACCESS);
        sides.put(d, s);
        closing.add(0, () -> {
            s.close();
            d.close();
        });
        return d;
    }

    private Side side(RdmaDevice d) {
        return sides.get(d);
    }

    private RdmaCmId id(RdmaEventChannel ch) {
        RdmaCmId id = ch.createId(PortSpace.TCP);
        closing.add(0, () -> {
            if (id.qp() != null) {
                id.qp().close();
            }
            id.close();
        });
        return id;
    }

    /** Closes what the test left open (QPs and IDs first, then devices), whatever failed. */
    @AfterEach
    void closeAll() {
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception alreadyClosedOrBusy) {
                // the test closed it, or it failed with events unacknowledged
            }
        }
    }

    private RdmaCmId wildcardListener(String wildcard, int port) {
        RdmaCmId listener = id(serverCh);
        listener.bindAddr(new InetSocketAddress(wildcard, port));
        listener.listen(8);
        return listener;
    }

    /** A client from {@code source} to {@code server}:{@code port}, its REQ sent. */
    private RdmaCmId connect(String source, RdmaDevice dev, String server, int port) throws InterruptedException {
        RdmaCmId id = id(clientCh);
        id.resolveAddr(new InetSocketAddress(source, 0), new InetSocketAddress(server, port), 2000);
        expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        id.createQp(side(dev).pd, side(dev).qpAttrs());
        id.connect(new ConnParam());
        return id;
    }

    /**
     * The server's end of a request: checked to live on {@code serverDev} at {@code address}:{@code port},
     * accepted on a QP of that device, ESTABLISHED on both sides; then a SEND from the client lands.
     */
    private RdmaCmId acceptOn(RdmaCmId listener, RdmaDevice serverDev, String address, int port, RdmaCmId client,
                              String message) throws InterruptedException {
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listener, req.listenId());
        RdmaCmId conn = req.id();
        closing.add(0, () -> {
            if (conn.qp() != null) {
                conn.qp().close();
            }
            conn.close();
        });
        assertSame(serverDev, conn.device(), "the request's ID lives on the device the REQ arrived on");
        assertEquals(new InetSocketAddress(address, port), conn.localAddress());
        assertEquals(new InetSocketAddress("127.0.0.2", client.localAddress().getPort()), conn.peerAddress());
        Side s = side(serverDev);
        conn.createQp(s.pd, s.qpAttrs());
        conn.qp().postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(s.mr, 0, 4096)));
        conn.accept(new ConnParam());
        expect(clientCh, RdmaCmEventType.ESTABLISHED);
        expect(serverCh, RdmaCmEventType.ESTABLISHED);

        byte[] bytes = message.getBytes(StandardCharsets.US_ASCII);
        Side c = side(clientDev);
        c.mr.buffer().put(0, bytes);
        client.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(c.mr, 0, bytes.length)));
        WorkCompletion recv = s.completion();
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(WcOpcode.RECV, recv.opcode());
        byte[] got = new byte[recv.byteLen()];
        s.mr.buffer().get(0, got);
        assertArrayEquals(bytes, got);
        assertEquals(WcStatus.SUCCESS, c.completion().status());
        return conn;
    }

    /** The client disconnects, the server answers; both reach TimeWait's end. */
    private void disconnect(RdmaCmId client, RdmaCmId conn) throws InterruptedException {
        client.disconnect();
        expect(serverCh, RdmaCmEventType.DISCONNECTED);
        conn.disconnect();
        expect(clientCh, RdmaCmEventType.DISCONNECTED);
        expect(clientCh, RdmaCmEventType.TIMEWAIT_EXIT);
        expect(serverCh, RdmaCmEventType.TIMEWAIT_EXIT);
    }

    @Test
    void oneWildcardListenerTakesTheRequestsOfEveryDevice() throws Exception {
        RdmaDevice devA = open("srvA", "127.0.0.1");
        RdmaDevice devB = open("srvB", "127.0.0.3");
        RdmaCmId listener = wildcardListener("0.0.0.0", 7301);
        assertNull(listener.device(), "a wildcard listener has no device of its own");
        assertEquals(new InetSocketAddress("0.0.0.0", 7301), listener.localAddress());
        assertThrows(InvalidStateException.class, () -> listener.createQp(side(devA).pd, side(devA).qpAttrs()),
            "no device: no QP");

        RdmaCmId toA = connect("127.0.0.2", clientDev, "127.0.0.1", 7301);
        RdmaCmId connA = acceptOn(listener, devA, "127.0.0.1", 7301, toA, "to 127.0.0.1 through 0.0.0.0");
        RdmaCmId toB = connect("127.0.0.2", clientDev, "127.0.0.3", 7301);
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        RdmaCmId connB = req.id();
        assertSame(devB, connB.device());
        assertThrows(InvalidAttributeException.class, () -> connB.createQp(side(devA).pd, side(devA).qpAttrs()),
            "the request came on 127.0.0.3's device: a PD of 127.0.0.1's does not do");
        connB.reject(new byte[0]);
        assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status());
        connB.close();

        RdmaCmId againB = connect("127.0.0.2", clientDev, "127.0.0.3", 7301);
        RdmaCmId connB2 = acceptOn(listener, devB, "127.0.0.3", 7301, againB, "to 127.0.0.3 through 0.0.0.0");
        assertNull(listener.device());
        assertEquals(new InetSocketAddress("0.0.0.0", 7301), listener.localAddress());
        disconnect(toA, connA);
        disconnect(againB, connB2);
    }

    @Test
    void aDeviceOpenedAfterListenIsListenedOnAndAClosedOneDropsOut() throws Exception {
        RdmaDevice devA = open("srvA", "127.0.0.1");
        RdmaCmId listener = wildcardListener("0.0.0.0", 7302);
        // The new device listens before open() returns (a listen queued on its I/O thread instead lost
        // the race with the client's REQ when the event loop read the socket before it ran its tasks).
        RdmaDevice devB = open("srvB", "127.0.0.3");
        RdmaCmId toB = connect("127.0.0.2", clientDev, "127.0.0.3", 7302);
        RdmaCmId connB = acceptOn(listener, devB, "127.0.0.3", 7302, toB, "to a device opened after listen");
        disconnect(toB, connB);
        toB.qp().close();
        connB.qp().close();
        toB.close();
        connB.close();

        side(devB).close();
        devB.close();
        RdmaCmId toA = connect("127.0.0.2", clientDev, "127.0.0.1", 7302);
        RdmaCmId connA = acceptOn(listener, devA, "127.0.0.1", 7302, toA, "after 127.0.0.3's device closed");
        disconnect(toA, connA);
        toA.qp().close();
        connA.qp().close();
        toA.close();
        connA.close();
        listener.close(); // stops on the devices still open; the closed one has dropped out
        connect("127.0.0.2", clientDev, "127.0.0.1", 7302);
        assertEquals(8, expect(clientCh, RdmaCmEventType.REJECTED).status(), "nobody listens on the port any more");
    }

    /** Linux's default bindv6only=0: an ID bound to :: takes IPv4 requests too, reported with IPv4 addresses. */
    @Test
    void anIpv6WildcardListenerAcceptsAnIpv4Client() throws Exception {
        RdmaDevice dev = open("srv", "127.0.0.1", "::1");
        RdmaCmId listener = wildcardListener("::", 7303);
        assertEquals(new InetSocketAddress("::", 7303), listener.localAddress());
        RdmaCmId client = connect("127.0.0.2", clientDev, "127.0.0.1", 7303);
        RdmaCmId conn = acceptOn(listener, dev, "127.0.0.1", 7303, client, "IPv4 to ::");
        disconnect(client, conn);
    }

    /** The server's device connects to itself over ::1: the IPv6 wildcard takes it, the IPv4 one refuses it (REJ 28). */
    @Test
    void anIpv6RequestReachesTheIpv6WildcardOnlyAndTheIpv4OneRefusesIt() throws Exception {
        RdmaDevice dev = open("srv", "127.0.0.1", "::1");
        RdmaCmId v4 = wildcardListener("0.0.0.0", 7304);
        RdmaCmId refused = id(clientCh);
        refused.resolveAddr(new InetSocketAddress("::1", 0), new InetSocketAddress("::1", 7304), 2000);
        expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        refused.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        refused.createQp(side(dev).pd, side(dev).qpAttrs());
        refused.connect(new ConnParam());
        assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status(), "IPv6 to 0.0.0.0: the other family");
        assertNull(serverCh.poll(), "the refused REQ was never reported");
        v4.close();

        RdmaCmId v6 = wildcardListener("::", 7304);
        RdmaCmId client = id(clientCh);
        client.resolveAddr(new InetSocketAddress("::1", 0), new InetSocketAddress("::1", 7304), 2000);
        expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        client.createQp(side(dev).pd, side(dev).qpAttrs());
        client.connect(new ConnParam());
        RdmaCmEvent req = expect(serverCh, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(v6, req.listenId());
        assertSame(dev, req.id().device());
        assertEquals(new InetSocketAddress("::1", 7304), req.id().localAddress());
        req.id().reject(new byte[0]);
        assertEquals(28, expect(clientCh, RdmaCmEventType.REJECTED).status());
        req.id().close();
    }

    /**
     * cma_check_port: a wildcard shares its port with no other ID, either way; InvalidStateException when
     * the other listens already, InvalidAttributeException when it is only bound. Port spaces are apart.
     */
    @Test
    void aWildcardAndASpecificBindOfOnePortConflictBothWays() {
        open("srv", "127.0.0.1", "::1");
        InetSocketAddress any = new InetSocketAddress("0.0.0.0", 7305);
        InetSocketAddress any6 = new InetSocketAddress("::", 7305);
        InetSocketAddress specific = new InetSocketAddress("127.0.0.1", 7305);

        RdmaCmId bound = id(serverCh);
        bound.bindAddr(specific);
        assertThrows(InvalidAttributeException.class, () -> id(serverCh).bindAddr(any));
        assertThrows(InvalidAttributeException.class, () -> id(serverCh).bindAddr(any6));
        bound.listen(1);
        InvalidStateException listened = assertThrows(InvalidStateException.class, () -> id(serverCh).bindAddr(any));
        assertTrue(listened.getMessage().contains("7305"), listened.getMessage());
        bound.close();

        RdmaCmId wildcard = id(serverCh);
        wildcard.bindAddr(any);
        assertThrows(InvalidAttributeException.class, () -> id(serverCh).bindAddr(specific));
        assertThrows(InvalidAttributeException.class, () -> id(serverCh).bindAddr(new InetSocketAddress("::1", 7305)),
            "an IPv6 ID is not afonly: it conflicts with 0.0.0.0 too");
        assertThrows(InvalidAttributeException.class, () -> id(serverCh).bindAddr(any6));
        wildcard.listen(1);
        assertThrows(InvalidStateException.class, () -> id(serverCh).bindAddr(specific));
        RdmaCmId otherSpace = serverCh.createId(PortSpace.IB);
        otherSpace.bindAddr(specific); // another port space: another bind list
        otherSpace.close();
        wildcard.close();

        RdmaCmId again = id(serverCh);
        again.bindAddr(specific); // the wildcard's close freed the port
        again.close();
    }

    /** A port 0 wildcard bind gets an ephemeral port, which listen uses. */
    @Test
    void aWildcardBindToPortZeroGetsAnEphemeralPort() throws Exception {
        RdmaDevice dev = open("srv", "127.0.0.1");
        RdmaCmId listener = id(serverCh);
        listener.bindAddr(new InetSocketAddress("0.0.0.0", 0));
        int port = listener.localAddress().getPort();
        assertTrue(port >= 32768 && port <= 60999, "ip_local_port_range: " + port);
        listener.listen(1);
        RdmaCmId client = connect("127.0.0.2", clientDev, "127.0.0.1", port);
        RdmaCmId conn = acceptOn(listener, dev, "127.0.0.1", port, client, "to an ephemeral port");
        disconnect(client, conn);
    }

    private long count(RdmaDevice d, String name) {
        return d.counters().getOrDefault(name, 0L);
    }

    /**
     * Returns once {@code server}'s device has handled every REQ the client sent it so far: it handles
     * them in arrival order, and a REQ for a port nobody listens on, sent after them, has been answered
     * (REJ 8). A count of REQs received would not do: it is taken before a request is queued.
     */
    private void handledInOrder(String server) throws InterruptedException {
        RdmaCmId probe = connect("127.0.0.2", clientDev, server, 7399);
        RdmaCmEvent refused = expect(clientCh, RdmaCmEventType.REJECTED);
        assertSame(probe, refused.id());
        assertEquals(8, refused.status());
    }

    private void awaitCount(RdmaDevice d, String name, long value) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (count(d, name) < value) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + " of " + d.name() + " stayed " + count(d, name) + ", expected " + value);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Closing the wildcard listener stops it on every device and rejects (REJ 28) its requests queued
     * unread, whichever device they came on; the backlog counts them across devices.
     */
    @Test
    void closingTheWildcardListenerRejectsItsQueuedRequestsOfEveryDevice() throws Exception {
        RdmaDevice devA = open("srvA", "127.0.0.1");
        RdmaDevice devB = open("srvB", "127.0.0.3");
        RdmaCmId listener = id(serverCh);
        listener.bindAddr(new InetSocketAddress("0.0.0.0", 7306));
        listener.listen(2);
        RdmaCmId toA = connect("127.0.0.2", clientDev, "127.0.0.1", 7306);
        RdmaCmId toB = connect("127.0.0.2", clientDev, "127.0.0.3", 7306);
        // Both CONNECT_REQUESTs queued (toA's before the third REQ, which comes after it to the same device).
        handledInOrder("127.0.0.3");
        RdmaCmId third = connect("127.0.0.2", clientDev, "127.0.0.1", 7306);
        // A backlog of 2 across both devices: the third REQ is forgotten unanswered.
        awaitCount(devA, "cm_drop_backlog", 1);
        third.close(); // before its REQ's retransmission: it withdraws (REJ 4, to a REQ the server forgot)
        listener.close();
        RdmaCmEvent first = expect(clientCh, RdmaCmEventType.REJECTED);
        RdmaCmEvent second = expect(clientCh, RdmaCmEventType.REJECTED);
        assertEquals(28, first.status());
        assertEquals(28, second.status());
        assertEquals(java.util.Set.of(toA, toB), java.util.Set.of(first.id(), second.id()));
        assertNull(serverCh.poll(), "the requests were withdrawn from the channel");
        connect("127.0.0.2", clientDev, "127.0.0.3", 7306);
        assertEquals(8, expect(clientCh, RdmaCmEventType.REJECTED).status(), "no listener left on 127.0.0.3's device");
    }

    /** rdma_getaddrinfo(NULL, "7471", RAI_PASSIVE) and rdma_create_ep: a passive endpoint on the wildcard. */
    @Test
    void aPassiveEndpointWithoutANodeListensOnEveryDevice() throws Exception {
        RdmaDevice devA = open("srvA", "127.0.0.1");
        RdmaDevice devB = open("srvB", "127.0.0.3");
        QpInitAttributes qp = new QpInitAttributes().maxSendWr(4).maxRecvWr(4);
        RdmaAddrInfo passive = RdmaCm.getAddrInfo(null, "7471", new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE));
        assertEquals(new InetSocketAddress("0.0.0.0", 7471), passive.srcAddress());
        try (RdmaEndpoint listener = RdmaCm.createEp(passive, null, qp)) {
            assertNull(listener.device());
            assertNull(listener.pd(), "no device, so none of its PDs");
            assertThrows(InvalidStateException.class, () -> listener.regMsgs(ByteBuffer.allocateDirect(8)));
            listener.listen(4);
            for (RdmaDevice server : new RdmaDevice[] {devA, devB}) {
                String address = server == devA ? "127.0.0.1" : "127.0.0.3";
                CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                    try (RdmaEndpoint conn = listener.getRequest();
                         MemoryRegion mr = conn.regMsgs(ByteBuffer.allocateDirect(64))) {
                        assertSame(server, conn.device());
                        assertSame(server, conn.pd().device(), "the device's own PD");
                        assertEquals(new InetSocketAddress(address, 7471), conn.localAddress());
                        conn.postRecv(1, mr, 0, 64);
                        conn.accept();
                        WorkCompletion wc = conn.getRecvComp(new WorkCompletion());
                        assertEquals(WcStatus.SUCCESS, wc.status());
                        byte[] b = new byte[wc.byteLen()];
                        mr.buffer().get(0, b);
                        conn.disconnect();
                        return new String(b, StandardCharsets.US_ASCII);
                    }
                });
                RdmaAddrInfo hints = new RdmaAddrInfo().srcAddress(new InetSocketAddress("127.0.0.2", 0));
                String message = "hello " + address;
                try (RdmaEndpoint ep = RdmaCm.createEp(RdmaCm.getAddrInfo(address, "7471", hints), null, qp);
                     MemoryRegion mr = ep.regMsgs(ByteBuffer.allocateDirect(64))) {
                    ep.connect();
                    mr.buffer().put(0, message.getBytes(StandardCharsets.US_ASCII));
                    ep.postSend(2, mr, 0, message.length(), SendFlags.SIGNALED);
                    assertEquals(WcStatus.SUCCESS, ep.getSendComp(new WorkCompletion()).status());
                    ep.disconnect(); // the server's disconnect, after its receive, sends the DREP
                }
                assertEquals(message, served.get(WAIT_S, TimeUnit.SECONDS));
            }
        }
    }
}
