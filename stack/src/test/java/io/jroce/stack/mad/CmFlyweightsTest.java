package io.jroce.stack.mad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Bit fields at their IBTA positions, masked to their width and leaving their neighbours alone,
 * for what the captures do not exercise (the MRA, flags set, the alternate path, SAP Supported).
 */
class CmFlyweightsTest {
    private final byte[] bytes = new byte[CmMessageFlyweight.LENGTH];
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

    @Test
    void mraPacksMessageMraedAndServiceTimeout() {
        CmMraFlyweight mra = new CmMraFlyweight().wrap(buffer, 0).clear();
        new MadHeaderFlyweight().wrap(buffer, 0).cmSend(mra.attributeId(), 0x0000_0002_0403_0201L);
        mra.localCommId(0x0102_0304).remoteCommId(0x0A0B_0C0D).messageMraed(CmMraFlyweight.MRAED_REP)
            .serviceTimeout(24);
        assertEquals("0107020300000000000000020403020100110000000000000102030" + "40a0b0c0d40c0",
            hex(bytes, 0, 34));
        assertEquals(CmMraFlyweight.MRAED_REP, mra.messageMraed());
        assertEquals(24, mra.serviceTimeout());
        assertEquals(222, mra.privateDataLength());
    }

    @Test
    void reqBitFieldsStayInTheirBits() {
        CmReqFlyweight req = new CmReqFlyweight().wrap(buffer, 0).clear();
        req.remoteCmResponseTimeout(0xFF).transportServiceType(CmReqFlyweight.TRANSPORT_UC).endToEndFlowControl(true);
        assertEquals(0xFB, bytes[CmReqFlyweight.REMOTE_CM_RESPONSE_TIMEOUT_OFFSET] & 0xFF);
        assertEquals(31, req.remoteCmResponseTimeout());
        assertEquals(CmReqFlyweight.TRANSPORT_UC, req.transportServiceType());
        req.remoteCmResponseTimeout(0);
        assertEquals(0x03, bytes[CmReqFlyweight.REMOTE_CM_RESPONSE_TIMEOUT_OFFSET] & 0xFF);
        assertTrue(req.endToEndFlowControl());

        req.localQpn(0xFF_ABCDEF).responderResources(0x11);
        assertEquals(0xABCDEF, req.localQpn(), "24 bits");
        assertEquals(0x11, req.responderResources(), "the byte after the QPN is its own");
        req.startingPsn(0x123456).localCmResponseTimeout(20).retryCount(9);
        assertEquals(0xA1, bytes[CmReqFlyweight.LOCAL_CM_RESPONSE_TIMEOUT_OFFSET] & 0xFF, "retry count masked to 3 bits");
        assertEquals(0x123456, req.startingPsn());
        req.pathMtu(5).rdcExists(true).rnrRetryCount(6);
        assertEquals(0x5E, bytes[CmReqFlyweight.PATH_MTU_OFFSET] & 0xFF);
        req.maxCmRetries(15).srq(true).extendedTransportType(7);
        assertEquals(0xFF, bytes[CmReqFlyweight.MAX_CM_RETRIES_OFFSET] & 0xFF);
        req.srq(false);
        assertEquals(0xF7, bytes[CmReqFlyweight.MAX_CM_RETRIES_OFFSET] & 0xFF);
        assertFalse(req.srq());
    }

    @Test
    void pathFlowLabelPacketRateAndAckTimeoutShareTheirWords() {
        CmReqFlyweight req = new CmReqFlyweight().wrap(buffer, 0).clear();
        CmPathFlyweight path = req.alternatePath(new CmPathFlyweight());
        path.packetRate(0x3F).flowLabel(0xFFF_FFFFF);
        int word = CmReqFlyweight.ALTERNATE_PATH_OFFSET + CmPathFlyweight.FLOW_LABEL_OFFSET;
        assertEquals("fffff03f", hex(bytes, word, 4), "20 bits of flow label, 6 reserved, 6 of rate");
        path.reservedAfterFlowLabel(0x3F).flowLabel(0x12345);
        assertEquals("12345fff", hex(bytes, word, 4));
        assertEquals(0x3F, path.packetRate());
        path.sl(0xF).subnetLocal(true);
        assertEquals(0xF8, bytes[CmReqFlyweight.ALTERNATE_PATH_OFFSET + CmPathFlyweight.SL_OFFSET] & 0xFF);
        path.localAckTimeout(19);
        req.sapSupported(true);
        assertEquals(0x9C, bytes[CmReqFlyweight.SAP_SUPPORTED_OFFSET] & 0xFF, "ACK timeout 19, SAP supported");
        assertEquals(19, path.localAckTimeout());
        assertEquals(163, CmReqFlyweight.SAP_SUPPORTED_OFFSET, "REQ data byte 139");
    }

    @Test
    void repAndRejBitFields() {
        CmRepFlyweight rep = new CmRepFlyweight().wrap(buffer, 0).clear();
        rep.targetAckDelay(15).failoverAccepted(2).endToEndFlowControl(true).rnrRetryCount(7).srq(true);
        assertEquals("7df0", hex(bytes, CmRepFlyweight.TARGET_ACK_DELAY_OFFSET, 2));
        rep.localQpn(0x11).localEecn(0x22).startingPsn(0xFFFFFF);
        assertEquals("00001100" + "00002200" + "ffffff00", hex(bytes, CmRepFlyweight.LOCAL_QPN_OFFSET, 12));

        CmRejFlyweight rej = new CmRejFlyweight().wrap(buffer, 0).clear();
        rej.messageRejected(CmRejFlyweight.REJECTED_OTHER).rejectInfoLength(72).reason(CmRejFlyweight.REASON_CONSUMER_DEFINED);
        assertEquals("8090001c", hex(bytes, CmRejFlyweight.MESSAGE_REJECTED_OFFSET, 4));
        assertEquals(72, rej.rejectInfoLength());
    }

    @Test
    void cmaHeaderHoldsIpv4AfterTwelveZeros() {
        CmaHeaderFlyweight cma = new CmaHeaderFlyweight().wrap(buffer, CmReqFlyweight.PRIVATE_DATA_OFFSET).clear();
        cma.cmaVersion(CmaHeaderFlyweight.CMA_VERSION).ipVersion(4).port(0x90F9).sourceIpv4(0x0A4D_0003)
            .destinationIpv4(0x0A4D_0002);
        assertEquals("004090f9" + "000000000000000000000000" + "0a4d0003" + "000000000000000000000000" + "0a4d0002",
            hex(bytes, CmReqFlyweight.PRIVATE_DATA_OFFSET, CmaHeaderFlyweight.LENGTH));
        assertEquals(4, cma.ipVersion());
        assertEquals(0x0A4D_0002, cma.destinationIpv4());
    }

    @Test
    void privateDataIsZeroPaddedAndBounded() {
        CmRtuFlyweight rtu = new CmRtuFlyweight().wrap(buffer, 0).clear();
        Arrays.fill(bytes, CmRtuFlyweight.PRIVATE_DATA_OFFSET, CmMessageFlyweight.LENGTH, (byte) 0x55);
        rtu.putPrivateData(new byte[] {1, 2, 3}, 0, 3);
        byte[] expected = new byte[CmRtuFlyweight.PRIVATE_DATA_LENGTH];
        expected[0] = 1;
        expected[1] = 2;
        expected[2] = 3;
        byte[] got = new byte[CmRtuFlyweight.PRIVATE_DATA_LENGTH];
        rtu.getPrivateData(got, 0, got.length);
        assertArrayEquals(expected, got);
        assertEquals(224, rtu.privateDataLength());
        assertThrows(IllegalArgumentException.class, () -> rtu.putPrivateData(new byte[225], 0, 225));
        assertEquals(92, CmReqFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(196, CmRepFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(148, CmRejFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(222, CmMraFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(220, CmDreqFlyweight.PRIVATE_DATA_LENGTH);
        assertEquals(224, CmDrepFlyweight.PRIVATE_DATA_LENGTH);
    }

    @Test
    void aBufferShorterThanTheMadIsRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> new CmDreqFlyweight().wrap(new UnsafeBuffer(new byte[255]), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> new MadHeaderFlyweight().wrap(new UnsafeBuffer(new byte[23]), 0));
    }

    private static String hex(byte[] b, int offset, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = offset; i < offset + length; i++) {
            s.append(String.format("%02x", b[i] & 0xFF));
        }
        return s.toString();
    }
}
