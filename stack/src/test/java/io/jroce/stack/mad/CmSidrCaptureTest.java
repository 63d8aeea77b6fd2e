package io.jroce.stack.mad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URL;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.pcap.RoceFrame;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.DethFlyweight;

/**
 * The SIDR exchange of librdmacm's {@code udaddy} against rxe (captures/cm/rxe-cm_udaddy.pcap,
 * client 10.77.0.3, server 10.77.0.2, UDP port space port 7174): the SIDR_REQ and SIDR_REP read with
 * the flyweights against their raw bytes, and each rebuilt with the setters equal to the capture.
 */
class CmSidrCaptureTest {
    private static final int MAD_OFFSET = BthFlyweight.LENGTH + DethFlyweight.LENGTH;
    private static final long UDP_7174 = 0x0111_1C06L;
    private static final int REQUEST_ID = 0x4fa08745;
    /** cm_form_tid: the agent counter 2 high, the request ID byte-reversed low. */
    private static final long TID = 0x0000_0002_4587_a04fL;
    private static final int SERVER_QPN = 0x11;
    private static final int RDMA_UDP_QKEY = 0x01234567;

    private final List<RoceFrame> frames;

    CmSidrCaptureTest() throws Exception {
        URL url = getClass().getResource("/captures/cm/rxe-cm_udaddy.pcap");
        assertNotNull(url);
        frames = RoceFrame.read(Path.of(url.toURI()));
    }

    private UnsafeBuffer mad(int frame) {
        return new UnsafeBuffer(Arrays.copyOfRange(frames.get(frame).roce(), MAD_OFFSET,
            MAD_OFFSET + CmMessageFlyweight.LENGTH));
    }

    @Test
    void sidrReqAsTheKernelSendsIt() {
        UnsafeBuffer b = mad(0);
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(b, 0);
        assertEquals(MadHeaderFlyweight.ATTR_SIDR_REQ, h.attributeId());
        assertEquals(TID, h.transactionId());
        CmSidrReqFlyweight req = new CmSidrReqFlyweight().wrap(b, 0);
        assertEquals(REQUEST_ID, req.requestId());
        assertEquals(CmTransactionId.commId(TID), req.requestId(), "the TID is formed from the request ID");
        assertEquals(0xFFFF, req.partitionKey());
        assertEquals(UDP_7174, req.serviceId());
        assertEquals(216, req.privateDataLength());
        // The RDMA CM header leads the private data, as in a REQ.
        CmaHeaderFlyweight cma = new CmaHeaderFlyweight().wrap(b, CmSidrReqFlyweight.PRIVATE_DATA_OFFSET);
        assertEquals(0, cma.cmaVersion());
        assertEquals(4, cma.ipVersion());
        assertEquals(0xc31d, cma.port());
        byte[] pd = new byte[216];
        req.getPrivateData(pd, 0, pd.length);
        assertArrayEquals(new byte[] {10, 77, 0, 3}, Arrays.copyOfRange(pd, 16, 20));
        assertArrayEquals(new byte[] {10, 77, 0, 2}, Arrays.copyOfRange(pd, 32, 36));
        assertArrayEquals(new byte[180], Arrays.copyOfRange(pd, 36, 216), "udaddy sends no user private data");

        UnsafeBuffer rebuilt = new UnsafeBuffer(new byte[CmMessageFlyweight.LENGTH]);
        CmSidrReqFlyweight w = new CmSidrReqFlyweight().wrap(rebuilt, 0).clear();
        new MadHeaderFlyweight().wrap(rebuilt, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REQ, TID);
        w.requestId(REQUEST_ID).partitionKey(0xFFFF).serviceId(UDP_7174).putPrivateData(pd, 0, 36);
        assertArrayEquals(b.byteArray(), rebuilt.byteArray());
    }

    @Test
    void sidrRepAsTheKernelSendsIt() {
        UnsafeBuffer b = mad(1);
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(b, 0);
        assertEquals(MadHeaderFlyweight.ATTR_SIDR_REP, h.attributeId());
        assertEquals(TID, h.transactionId(), "the SIDR_REP echoes the SIDR_REQ's TID");
        CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(b, 0);
        assertEquals(REQUEST_ID, rep.requestId());
        assertEquals(CmSidrRepFlyweight.STATUS_SUCCESS, rep.status());
        assertEquals(0, rep.additionalInfoLength());
        assertEquals(SERVER_QPN, rep.qpn());
        assertEquals(UDP_7174, rep.serviceId());
        assertEquals(RDMA_UDP_QKEY, rep.qKey());
        assertEquals(136, rep.privateDataLength());
        // Raw bytes: the QPN leads its word, the Q_Key at data offset 20.
        assertEquals(0x00, b.getByte(CmSidrRepFlyweight.QPN_OFFSET));
        assertEquals(0x11, b.getByte(CmSidrRepFlyweight.QPN_OFFSET + 2));
        assertEquals(0x01, b.getByte(CmSidrRepFlyweight.Q_KEY_OFFSET));
        assertEquals(0x67, b.getByte(CmSidrRepFlyweight.Q_KEY_OFFSET + 3));

        UnsafeBuffer rebuilt = new UnsafeBuffer(new byte[CmMessageFlyweight.LENGTH]);
        CmSidrRepFlyweight w = new CmSidrRepFlyweight().wrap(rebuilt, 0).clear();
        new MadHeaderFlyweight().wrap(rebuilt, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REP, TID);
        w.requestId(REQUEST_ID).status(0).additionalInfoLength(0).qpn(SERVER_QPN).serviceId(UDP_7174)
            .qKey(RDMA_UDP_QKEY).putPrivateData(new byte[0], 0, 0);
        assertArrayEquals(b.byteArray(), rebuilt.byteArray());
    }

    @Test
    void theSendsThatFollowUseTheAnnouncedQpAndQKey() {
        // udaddy: UD SEND with immediate (opcode 0x65) to the SIDR_REP's QPN with its Q_Key, imm = QPN.
        List<RoceFrame> data = frames.subList(2, frames.size());
        assertEquals(20, data.size());
        for (RoceFrame f : data) {
            assertEquals(0x65, f.opcode());
            assertEquals(SERVER_QPN, f.destQp());
            UnsafeBuffer r = new UnsafeBuffer(f.roce());
            assertEquals(RDMA_UDP_QKEY, new DethFlyweight().wrap(r, BthFlyweight.LENGTH).qKey());
        }
    }

    @Test
    void ownFieldsDoNotOverlap() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[CmMessageFlyweight.LENGTH]);
        CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(b, 0).clear();
        rep.requestId(-1).status(0xFF).additionalInfoLength(0xFF).qpn(0xFFFFFF).serviceId(-1L).qKey(-1);
        assertEquals(0, b.getByte(CmSidrRepFlyweight.QPN_OFFSET + 3), "the byte after the QPN is reserved");
        assertEquals(0, b.getShort(30), "two reserved bytes after the info length");
        rep.qpn(0x123456);
        assertEquals(0x123456, rep.qpn());
        assertEquals(-1, rep.requestId());
        CmSidrReqFlyweight req = new CmSidrReqFlyweight().wrap(b, 0).clear();
        req.requestId(7).partitionKey(0xFFFF).serviceId(UDP_7174);
        assertEquals(0, b.getShort(30));
        assertEquals(UDP_7174, req.serviceId());
    }
}
