package io.jroce.tests.cm;

import static io.jroce.tests.cm.CmUdpPair.freePort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.ConnectionManager;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * An attacker's REQs to a jroce device listening through the RDMA CM API: a second device on one host
 * sends REQs built field by field from its GSI and records what comes back. Each REQ the kernel's CMA
 * would refuse is refused with the REJ the kernel sends, and the application hears nothing.
 */
class CmaForgedReqUdpTest {
    private static final int SERVICE_PORT = 7174;
    private static final long WAIT_S = 10;
    private static final Gid SERVER = Gid.parse("127.0.0.1");
    private static final Gid ATTACKER = Gid.parse("127.0.0.2");

    private final int udpPort = freePort();
    private final RdmaDevice serverDev = SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(udpPort).open();
    private final SoftDevice attacker = (SoftDevice) SoftRnic.builder().name("att").address("127.0.0.2")
        .udpPort(udpPort).open();
    private final RdmaEventChannel channel = RdmaCm.createEventChannel();
    private final RdmaCmId listener = channel.createId(PortSpace.TCP);
    /** The MADs the attacker's GSI receives, in place of its own CM. */
    private final BlockingQueue<byte[]> answers = new LinkedBlockingQueue<>();
    private int nextCommId = 0x1000;

    CmaForgedReqUdpTest() {
        attacker.gsi().handler((mad, peerGid, peerPort, sourceQp, pkeyIndex, localGid, nowNs) -> {
            byte[] copy = new byte[256];
            mad.getBytes(0, copy);
            answers.add(copy);
        });
        listener.bindAddr(new InetSocketAddress("127.0.0.1", SERVICE_PORT));
        listener.listen(8);
    }

    @AfterEach
    void close() {
        listener.close();
        channel.close();
        serverDev.close();
        attacker.close();
    }

    /** A REQ as a kernel's CMA sends it (RC, MTU 1024, the RDMA CM header), then {@code edit}ed; sent from QP1. */
    private int sendReq(Consumer<UnsafeBuffer> edit) {
        int commId = nextCommId++;
        UnsafeBuffer mad = new UnsafeBuffer(new byte[256]);
        new MadHeaderFlyweight().wrap(mad, 0).cmSend(MadHeaderFlyweight.ATTR_REQ, 0x0000_0002_0000_0000L | commId);
        CmReqFlyweight req = new CmReqFlyweight().wrap(mad, 0);
        req.localCommId(commId).serviceId(ConnectionManager.tcpServiceId(SERVICE_PORT)).localCaGuid(0x0002_C903_0000_1234L)
            .localQpn(0x11 + commId).responderResources(1).initiatorDepth(1).remoteCmResponseTimeout(20)
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(0x123).localCmResponseTimeout(20)
            .retryCount(7).partitionKey(0xFFFF).pathMtu(3).rnrRetryCount(7).maxCmRetries(15);
        CmPathFlyweight path = req.primaryPath(new CmPathFlyweight());
        path.localPortLid(0xFFFF).remotePortLid(0xFFFF).localPortGid(ATTACKER.toBytes(), 0)
            .remotePortGid(SERVER.toBytes(), 0).hopLimit(64).localAckTimeout(19);
        byte[] pd = new byte[CmReqFlyweight.PRIVATE_DATA_LENGTH];
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(pd), 0);
        h.cmaVersion(0).ipVersion(4).port(50000);
        setAddress(pd, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, ATTACKER);
        setAddress(pd, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, SERVER);
        req.putPrivateData(pd, 0, pd.length);
        edit.accept(mad);
        attacker.gsi().execute(() -> attacker.gsi().send(mad, 0, ATTACKER.toBytes(), SERVER.toBytes(), udpPort));
        return commId;
    }

    private static void setAddress(byte[] pd, int offset, Gid g) {
        for (int i = 0; i < 4; i++) {
            pd[offset + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i] = g.byteAt(12 + i);
        }
    }

    /** Writes an IPv4 address into the REQ's RDMA CM header (private data, MAD offset 24 + 140). */
    private static Consumer<UnsafeBuffer> headerAddress(int headerOffset, String ipv4) {
        Gid g = Gid.parse(ipv4);
        return mad -> {
            for (int i = 0; i < 4; i++) {
                mad.putByte(CmReqFlyweight.PRIVATE_DATA_OFFSET + headerOffset + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i,
                    g.byteAt(12 + i));
            }
        };
    }

    private CmRejFlyweight nextRej() throws InterruptedException {
        byte[] mad = answers.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(mad, "no answer within " + WAIT_S + " s");
        UnsafeBuffer b = new UnsafeBuffer(mad);
        assertEquals(MadHeaderFlyweight.ATTR_REJ, new MadHeaderFlyweight().wrap(b, 0).attributeId());
        return new CmRejFlyweight().wrap(b, 0);
    }

    /** REJ 28 from REQ_RCVD (cm_destroy_id when cma_ib_req_handler fails), and no event for the application. */
    private void assertRefused(int commId) throws InterruptedException {
        CmRejFlyweight rej = nextRej();
        assertEquals(CmRejFlyweight.REASON_CONSUMER_DEFINED, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
        assertEquals(0, rej.localCommId());
        assertEquals(commId, rej.remoteCommId());
        assertEquals(0, rej.rejectInfoLength());
        assertNull(channel.poll(), "the application hears nothing of a refused REQ");
    }

    @Test
    void anotherRdmaCmHeaderVersionIsRefused() throws InterruptedException {
        assertRefused(sendReq(mad -> mad.putByte(CmReqFlyweight.PRIVATE_DATA_OFFSET, (byte) 1)));
    }

    @Test
    void anIpVersionOtherThan4Or6IsRefused() throws InterruptedException {
        assertRefused(sendReq(mad -> mad.putByte(CmReqFlyweight.PRIVATE_DATA_OFFSET + 1, (byte) 0x50)));
    }

    @Test
    void zeroBroadcastAndMulticastSourcesAreRefused() throws InterruptedException {
        for (String source : new String[] {"0.0.0.0", "255.255.255.255", "224.0.0.1"}) {
            assertRefused(sendReq(headerAddress(CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, source)));
        }
    }

    @Test
    void aSourceOtherThanTheSenderIsRefused() throws InterruptedException {
        assertRefused(sendReq(headerAddress(CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, "127.0.0.9")));
    }

    @Test
    void aDestinationOtherThanTheListenersIsRefused() throws InterruptedException {
        assertRefused(sendReq(headerAddress(CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, "127.0.0.3")));
    }

    @Test
    void aRequestedGidOtherThanTheArrivalGidIsRefused() throws InterruptedException {
        assertRefused(sendReq(mad -> new CmReqFlyweight().wrap(mad, 0).primaryPath(new CmPathFlyweight())
            .remotePortGid(Gid.parse("127.0.0.7").toBytes(), 0)));
    }

    @Test
    void aPathGidOtherThanTheSenderGetsRej12WithTheGidOfThePort() throws InterruptedException {
        int commId = sendReq(mad -> new CmReqFlyweight().wrap(mad, 0).primaryPath(new CmPathFlyweight())
            .localPortGid(Gid.parse("127.0.0.9").toBytes(), 0));
        CmRejFlyweight rej = nextRej();
        assertEquals(CmRejFlyweight.REASON_INVALID_GID, rej.reason());
        assertEquals(0, rej.localCommId());
        assertEquals(commId, rej.remoteCommId());
        assertEquals(16, rej.rejectInfoLength());
        byte[] ari = new byte[16];
        rej.buffer().getBytes(CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET, ari);
        assertArrayEquals(SERVER.toBytes(), ari);
        assertNull(channel.poll());
        assertEquals(1L, serverDev.counters().get("cm_rej_invalid_gid"));
    }

    @Test
    void aPathMtuBeyond4096FailsTheAcceptWithRej28() throws InterruptedException {
        int commId = sendReq(mad -> new CmReqFlyweight().wrap(mad, 0).pathMtu(7));
        RdmaCmEvent request = channel.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(request);
        request.ack();
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, request.type());
        RdmaCmId id = request.id();
        ProtectionDomain pd = serverDev.allocPd();
        CompletionQueue cq = serverDev.createCq(4);
        try {
            id.createQp(pd, new QpInitAttributes().cq(cq).maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1));
            // rdma_accept: the QP cannot reach RTR (rxe_qp_chk_attr: path_mtu > max_mtu), so it rejects.
            assertThrows(InvalidAttributeException.class, () -> id.accept(new ConnParam()));
            CmRejFlyweight rej = nextRej();
            assertEquals(CmRejFlyweight.REASON_CONSUMER_DEFINED, rej.reason());
            assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
            assertNotEquals(0, rej.localCommId(), "rdma_reject after the CMA armed its MRA: the local comm ID");
            assertEquals(commId, rej.remoteCommId());
        } finally {
            id.qp().close();
            id.close();
            cq.close();
            pd.close();
        }
    }

    @Test
    void anIpv6HeaderToAnIpv4ListenerIsRefused() throws InterruptedException {
        assertRefused(sendReq(mad -> mad.putByte(CmReqFlyweight.PRIVATE_DATA_OFFSET + 1, (byte) 0x60)));
    }

    /** UC (and RD) are not offered: REJ 28 at once, as the kernel's cma_check_req_qp_type makes it answer. */
    @Test
    void aUcOrRdReqIsRefused() throws InterruptedException {
        assertRefused(sendReq(mad -> new CmReqFlyweight().wrap(mad, 0).transportServiceType(1)));
        assertRefused(sendReq(mad -> new CmReqFlyweight().wrap(mad, 0).transportServiceType(2)));
        assertEquals(0L, serverDev.counters().get("cm_drop_bad_mad"));
    }

    @Test
    void anIntactForgedReqIsReported() throws InterruptedException {
        sendReq(mad -> { });
        RdmaCmEvent request = channel.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(request, "the template itself is a valid REQ");
        request.ack();
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, request.type());
        assertEquals(new InetSocketAddress("127.0.0.2", 50000), request.id().peerAddress());
        request.id().reject(new byte[0]);
        assertEquals(CmRejFlyweight.REASON_CONSUMER_DEFINED, nextRej().reason());
        request.id().close();
    }
}
