package io.jroce.tests.cm;

import static io.jroce.tests.cm.CmUdpPair.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

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
import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmSidrReqFlyweight;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * SIDR messages forged by a host speaking MADs from its QP1 (a jroce device whose GSI handler is the
 * test's): the RDMA CM's checks of a SIDR_REQ (answered with status 2, the application hears nothing)
 * and of a SIDR_REP's Q_Key.
 */
class CmaForgedSidrUdpTest {
    private static final int SERVICE_PORT = 7174;
    private static final long WAIT_S = 10;
    private static final Gid JROCE = Gid.parse("127.0.0.1");
    private static final Gid FORGER = Gid.parse("127.0.0.2");

    private final int udpPort = freePort();
    private final RdmaDevice dev = SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(udpPort).open();
    private final SoftDevice forger = (SoftDevice) SoftRnic.builder().name("fgr").address("127.0.0.2")
        .udpPort(udpPort).open();
    private final RdmaEventChannel channel = RdmaCm.createEventChannel();
    private final BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();

    CmaForgedSidrUdpTest() {
        forger.gsi().handler((mad, peerGid, peerPort, sourceQp, pkeyIndex, localGid, nowNs) -> {
            byte[] copy = new byte[256];
            mad.getBytes(0, copy);
            received.add(copy);
        });
    }

    @AfterEach
    void close() {
        dev.close();
        forger.close();
    }

    private void send(UnsafeBuffer mad) {
        forger.gsi().execute(() -> forger.gsi().send(mad, 0, FORGER.toBytes(), JROCE.toBytes(), udpPort));
    }

    private UnsafeBuffer next(int attribute) throws InterruptedException {
        byte[] mad = received.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(mad, "no MAD within " + WAIT_S + " s");
        UnsafeBuffer b = new UnsafeBuffer(mad);
        assertEquals(attribute, new MadHeaderFlyweight().wrap(b, 0).attributeId());
        return b;
    }

    /** A SIDR_REQ as a kernel's CMA sends it from the forger, then {@code edit}ed. */
    private void sendSidrReq(int requestId, Consumer<byte[]> edit) {
        UnsafeBuffer mad = new UnsafeBuffer(new byte[256]);
        new MadHeaderFlyweight().wrap(mad, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REQ, requestId);
        byte[] pd = new byte[CmSidrReqFlyweight.PRIVATE_DATA_LENGTH];
        new CmaHeaderFlyweight().wrap(new UnsafeBuffer(pd), 0).cmaVersion(0).ipVersion(4).port(50000);
        for (int i = 0; i < 4; i++) {
            pd[CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i] = FORGER.byteAt(12 + i);
            pd[CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i] = JROCE.byteAt(12 + i);
        }
        edit.accept(pd);
        new CmSidrReqFlyweight().wrap(mad, 0).requestId(requestId).partitionKey(0xFFFF)
            .serviceId(ConnectionManager.udpServiceId(SERVICE_PORT)).putPrivateData(pd, 0, pd.length);
        send(mad);
    }

    @Test
    void aSidrReqTheCmaRefusesGetsStatus2AndNoEvent() throws Exception {
        RdmaCmId listener = channel.createId(PortSpace.UDP);
        listener.bindAddr(new InetSocketAddress("127.0.0.1", SERVICE_PORT));
        listener.listen(8);
        // Header version 1, IP version 5, a source that is not the sender, a destination not the listener's.
        sendSidrReq(0x101, pd -> pd[0] = 1);
        sendSidrReq(0x102, pd -> pd[1] = 0x50);
        sendSidrReq(0x103, pd -> pd[CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET + 15] = 9);
        sendSidrReq(0x104, pd -> pd[CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET + 15] = 9);
        for (int id = 0x101; id <= 0x104; id++) {
            CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(next(MadHeaderFlyweight.ATTR_SIDR_REP), 0);
            assertEquals(id, rep.requestId());
            assertEquals(CmSidrRepFlyweight.STATUS_REJECT, rep.status());
            assertEquals(0, rep.qpn());
        }
        assertNull(channel.get(200, TimeUnit.MILLISECONDS), "the application hears of none");

        // A well-formed one is reported.
        sendSidrReq(0x105, pd -> { });
        RdmaCmEvent e = channel.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e);
        e.ack();
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, e.type());
        e.id().close();
        assertEquals(CmSidrRepFlyweight.STATUS_REJECT,
            new CmSidrRepFlyweight().wrap(next(MadHeaderFlyweight.ATTR_SIDR_REP), 0).status(), "closed unanswered");
        listener.close();
    }

    @Test
    void aSidrRepWithAnotherQKeyIsAddrError() throws Exception {
        ProtectionDomain pd = dev.allocPd();
        CompletionQueue cq = dev.createCq(4);
        RdmaCmId id = channel.createId(PortSpace.UDP);
        id.resolveAddr(new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.2", SERVICE_PORT), 2000);
        assertEquals(RdmaCmEventType.ADDR_RESOLVED, take().type());
        id.resolveRoute(2000);
        assertEquals(RdmaCmEventType.ROUTE_RESOLVED, take().type());
        id.createQp(pd, new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(1).maxRecvWr(1).maxSendSge(1)
            .maxRecvSge(1));
        id.connect(new ConnParam());
        UnsafeBuffer req = next(MadHeaderFlyweight.ATTR_SIDR_REQ);
        int requestId = new CmSidrReqFlyweight().wrap(req, 0).requestId();
        UnsafeBuffer rep = new UnsafeBuffer(new byte[256]);
        new MadHeaderFlyweight().wrap(rep, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REP,
            new MadHeaderFlyweight().wrap(req, 0).transactionId());
        new CmSidrRepFlyweight().wrap(rep, 0).requestId(requestId).status(0).qpn(0x42)
            .serviceId(ConnectionManager.udpServiceId(SERVICE_PORT)).qKey(0x1234);
        send(rep);
        RdmaCmEvent e = take();
        assertEquals(RdmaCmEventType.ADDR_ERROR, e.type(), "cma_sidr_rep_handler: cma_set_qkey fails");
        assertEquals(-22, e.status());
        assertNull(e.udParam());
        id.qp().close();
        id.close();
        cq.close();
        pd.close();
    }

    private RdmaCmEvent take() throws InterruptedException {
        RdmaCmEvent e = channel.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e);
        e.ack();
        return e;
    }
}
