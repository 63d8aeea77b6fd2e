package io.jroce.stack.mad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.RoceFrame;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.DethFlyweight;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every CM MAD of the real rxe captures (captures/README.md), read with the {@code mad} flyweights:
 * the UD envelope, the MAD header, each message's fields against what the conversation must hold
 * (message order, comm IDs pairing, transaction IDs as cm_form_tid forms them, the QPs and PSNs
 * that then carry data, the RDMA CM header against the IP header), and every message rebuilt with
 * the setters equal to the captured bytes.
 */
class CmCaptureTest {
    /** BTH opcode of a UD SEND Only: every CM message is one (IBTA Vol. 1 13.5.1, QP1). */
    private static final int UD_SEND_ONLY = 0x64;
    private static final int GSI_QPN = 1;
    private static final int MAD_OFFSET = BthFlyweight.LENGTH + DethFlyweight.LENGTH;
    /** The RDMA CM's TCP port space (cma.c, RDMA_PS_TCP), the high bits of its service IDs. */
    private static final long PORT_SPACE_TCP = 0x0106;
    /** The kernel's MAD agent counter in every capture's TIDs: both peers registered their agent second. */
    private static final int LAB_HI_TID = 2;

    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmPathFlyweight path = new CmPathFlyweight();
    private final CmaHeaderFlyweight cma = new CmaHeaderFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();
    private final BthFlyweight bth = new BthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final CmRoundTrip roundTrip = new CmRoundTrip();

    /** One connection as its REQ and REP announced it. */
    private static final class Connection {
        int activeCommId;
        int passiveCommId;
        long reqTid;
        byte[] activeIp;
        byte[] passiveIp;
        int activeQpn;
        int activePsn;
        int passiveQpn = -1;
        int passivePsn;
        final List<Integer> messages = new ArrayList<>();
        final Map<Integer, Long> dreqTids = new HashMap<>();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // capture, connections, service port, rejected, the REQ's responder resources = initiator depth,
        // retry count and RNR retry count as the program asked, attribute IDs of one connection in order
        "rxe-rping,             1, 7174, false,   1, 7, 7, 16 19 20 21 22",
        "rxe-rping_v6,          1, 7174, false,   1, 7, 7, 16 19 20 21 22",
        "cm/rxe-cm_rdma_server, 1, 7471, false, 128, 7, 7, 16 19 20 21 22",
        "cm/rxe-cm_ucmatose,    4, 7471, false,   1, 5, 0, 16 19 20 21 22",
        "cm/rxe-cm_rej,         1, 7174, true,    1, 7, 7, 16 18",
    })
    void everyCmMessageParsesPairsAndRoundTrips(String capture, int connections, int servicePort, boolean rejected,
                                                int rdmaDepth, int retryCount, int rnrRetryCount, String sequence)
        throws IOException, URISyntaxException {
        List<RoceFrame> frames = RoceFrame.read(resource(capture));
        Map<Integer, Connection> byActiveCommId = new HashMap<>();
        int mads = 0;
        for (RoceFrame f : frames) {
            if (f.destQp() != GSI_QPN) {
                continue;
            }
            String where = capture + " frame " + f.index();
            UnsafeBuffer roce = new UnsafeBuffer(f.roce());
            envelope(roce, where);
            header.wrap(roce, MAD_OFFSET);
            assertEquals(MadHeaderFlyweight.BASE_VERSION, header.baseVersion(), where);
            assertEquals(MadHeaderFlyweight.MGMT_CLASS_CM, header.mgmtClass(), where);
            assertEquals(MadHeaderFlyweight.CM_CLASS_VERSION, header.classVersion(), where);
            assertEquals(MadHeaderFlyweight.METHOD_SEND, header.method(), where);
            assertEquals(0, header.status(), where);
            assertEquals(0, header.classSpecific(), where);
            assertEquals(0, header.reserved(), where);
            assertEquals(0, header.attributeModifier(), where);
            assertEquals(LAB_HI_TID, CmTransactionId.hiTid(header.transactionId()), where);
            message(roce, f, new Expected(servicePort, rdmaDepth, retryCount, rnrRetryCount), byActiveCommId, where);
            assertArrayEquals(Arrays.copyOfRange(f.roce(), MAD_OFFSET, MAD_OFFSET + CmMessageFlyweight.LENGTH),
                roundTrip.rebuild(roce, MAD_OFFSET), where + ": rebuilt with the setters");
            mads++;
        }
        assertEquals(connections, byActiveCommId.size(), capture + " connections");
        List<Integer> expected = Arrays.stream(sequence.split(" ")).map(Integer::valueOf).toList();
        assertEquals(connections * expected.size(), mads, capture + " CM MADs");
        for (Connection c : byActiveCommId.values()) {
            assertEquals(expected, c.messages, capture + " messages of comm ID " + Integer.toHexString(c.activeCommId));
            if (!rejected) {
                dataFlowsOnTheAnnouncedQps(frames, c, capture);
            }
        }
    }

    /** BTH and DETH of a CM MAD: UD SEND Only from QP1 to QP1, default P_Key, the GSI Q_Key, 256 bytes. */
    private void envelope(UnsafeBuffer roce, String where) {
        bth.wrap(roce, 0);
        assertEquals(UD_SEND_ONLY, bth.opcode(), where);
        assertEquals(BthFlyweight.DEFAULT_P_KEY, bth.partitionKey(), where);
        assertEquals(0, bth.padCount(), where);
        deth.wrap(roce, BthFlyweight.LENGTH);
        assertEquals(DethFlyweight.GSI_Q_KEY, deth.qKey(), where);
        assertEquals(GSI_QPN, deth.sourceQp(), where);
        assertEquals(MAD_OFFSET + MadHeaderFlyweight.MAD_LENGTH, roce.capacity(), where + ": one 256-byte MAD");
    }

    /** What the program on the active side asked for: the REQ's service ID and QP attributes. */
    private record Expected(int servicePort, int rdmaDepth, int retryCount, int rnrRetryCount) {
    }

    private void message(UnsafeBuffer roce, RoceFrame f, Expected expected, Map<Integer, Connection> connections,
                         String where) {
        long tid = header.transactionId();
        switch (header.attributeId()) {
            case MadHeaderFlyweight.ATTR_REQ -> {
                req.wrap(roce, MAD_OFFSET);
                Connection c = new Connection();
                c.activeCommId = req.localCommId();
                c.reqTid = tid;
                c.activeIp = f.src16();
                c.passiveIp = f.dst16();
                c.activeQpn = req.localQpn();
                c.activePsn = req.startingPsn();
                c.messages.add(MadHeaderFlyweight.ATTR_REQ);
                assertEquals(null, connections.put(c.activeCommId, c), where + ": comm IDs are unique");
                assertEquals(c.activeCommId, CmTransactionId.commId(tid), where + ": the TID holds the REQ's comm ID");
                request(f, expected, where);
            }
            case MadHeaderFlyweight.ATTR_REP -> {
                rep.wrap(roce, MAD_OFFSET);
                Connection c = connection(connections, rep.remoteCommId(), where);
                c.passiveCommId = rep.localCommId();
                c.passiveQpn = rep.localQpn();
                c.passivePsn = rep.startingPsn();
                c.messages.add(MadHeaderFlyweight.ATTR_REP);
                fromPassive(c, f, where);
                assertEquals(c.reqTid, tid, where + ": a REP answers with the REQ's TID");
                assertEquals(0, rep.localQKey(), where + ": Q_Key is for RD only");
                assertEquals(expected.rdmaDepth(), rep.responderResources(), where);
                assertEquals(expected.rdmaDepth(), rep.initiatorDepth(), where);
                assertEquals(7, rep.rnrRetryCount(), where);
                assertEquals(15, rep.targetAckDelay(), where + ": rxe's ACK delay");
                assertFalse(rep.srq(), where);
                assertEquals(0, rep.failoverAccepted(), where);
            }
            case MadHeaderFlyweight.ATTR_RTU -> {
                rtu.wrap(roce, MAD_OFFSET);
                Connection c = connection(connections, rtu.localCommId(), where);
                assertEquals(c.passiveCommId, rtu.remoteCommId(), where);
                c.messages.add(MadHeaderFlyweight.ATTR_RTU);
                fromActive(c, f, where);
                assertEquals(c.reqTid, tid, where + ": an RTU carries the REQ's TID");
            }
            case MadHeaderFlyweight.ATTR_REJ -> {
                rej.wrap(roce, MAD_OFFSET);
                Connection c = connection(connections, rej.remoteCommId(), where);
                c.messages.add(MadHeaderFlyweight.ATTR_REJ);
                fromPassive(c, f, where);
                assertEquals(c.reqTid, tid, where + ": a REJ answers with the REQ's TID");
                assertEquals(0, rej.localCommId(), where + ": no CM ID answered (cm_issue_rej)");
                assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected(), where);
                assertEquals(CmRejFlyweight.REASON_INVALID_SERVICE_ID, rej.reason(), where + ": nobody listens");
                assertEquals(0, rej.rejectInfoLength(), where);
            }
            case MadHeaderFlyweight.ATTR_DREQ -> {
                dreq.wrap(roce, MAD_OFFSET);
                boolean byActive = Arrays.equals(f.src16(), activeIpOf(connections, dreq, where));
                Connection c = byActive ? connection(connections, dreq.localCommId(), where)
                    : connection(connections, dreq.remoteCommId(), where);
                assertEquals(byActive ? c.passiveCommId : c.activeCommId, dreq.remoteCommId(), where);
                assertEquals(byActive ? c.activeCommId : c.passiveCommId, dreq.localCommId(), where);
                assertEquals(byActive ? c.passiveQpn : c.activeQpn, dreq.remoteQpn(), where + ": the receiver's QPN");
                assertEquals(dreq.localCommId(), CmTransactionId.commId(tid), where + ": the TID of the sender's CM ID");
                if (byActive) {
                    assertEquals(c.reqTid, tid, where + ": the active side's CM ID keeps its REQ's TID");
                }
                c.dreqTids.put(dreq.localCommId(), tid);
                c.messages.add(MadHeaderFlyweight.ATTR_DREQ);
            }
            case MadHeaderFlyweight.ATTR_DREP -> {
                drep.wrap(roce, MAD_OFFSET);
                Connection c = connections.containsKey(drep.localCommId()) ? connections.get(drep.localCommId())
                    : connection(connections, drep.remoteCommId(), where);
                Long dreqTid = c.dreqTids.get(drep.remoteCommId());
                assertNotNull(dreqTid, where + ": a DREP answers a DREQ of its remote comm ID");
                assertEquals(dreqTid, tid, where + ": a DREP echoes the DREQ's TID");
                c.messages.add(MadHeaderFlyweight.ATTR_DREP);
            }
            default -> throw new AssertionError(where + ": attribute 0x" + Integer.toHexString(header.attributeId()));
        }
    }

    /** The REQ's fields the RDMA CM sets on RoCEv2, and its CMA header against the IP header. */
    private void request(RoceFrame f, Expected expected, String where) {
        int servicePort = expected.servicePort();
        assertEquals(PORT_SPACE_TCP << 16 | servicePort, req.serviceId(), where + ": service ID");
        assertEquals(expected.rdmaDepth(), req.responderResources(), where);
        assertEquals(expected.rdmaDepth(), req.initiatorDepth(), where);
        assertEquals(0, req.localQKey(), where);
        assertEquals(CmReqFlyweight.TRANSPORT_RC, req.transportServiceType(), where);
        assertEquals(20, req.remoteCmResponseTimeout(), where);
        assertEquals(20, req.localCmResponseTimeout(), where);
        assertEquals(15, req.maxCmRetries(), where);
        assertEquals(expected.retryCount(), req.retryCount(), where);
        assertEquals(expected.rnrRetryCount(), req.rnrRetryCount(), where);
        assertEquals(3, req.pathMtu(), where + ": 1024 for a 1500-byte netdev");
        assertEquals(BthFlyweight.DEFAULT_P_KEY, req.partitionKey(), where);
        assertFalse(req.srq(), where);
        assertFalse(req.endToEndFlowControl(), where);
        assertFalse(req.rdcExists(), where);

        req.primaryPath(path);
        assertEquals(0xFFFF, path.localPortLid(), where + ": permissive LIDs when the hop limit exceeds 1");
        assertEquals(0xFFFF, path.remotePortLid(), where);
        byte[] gid = new byte[16];
        path.getLocalPortGid(gid, 0);
        assertArrayEquals(f.src16(), gid, where + ": the local GID is the IP source");
        path.getRemotePortGid(gid, 0);
        assertArrayEquals(f.dst16(), gid, where + ": the remote GID is the IP destination");
        assertEquals(64, path.hopLimit(), where);
        assertFalse(path.subnetLocal(), where);
        assertEquals(19, path.localAckTimeout(), where);

        cma.wrap(req.buffer(), req.offset() + CmReqFlyweight.PRIVATE_DATA_OFFSET);
        assertEquals(CmaHeaderFlyweight.CMA_VERSION, cma.cmaVersion(), where);
        assertEquals(f.ipv6() ? 6 : 4, cma.ipVersion(), where);
        byte[] address = new byte[16];
        cma.getSourceAddress(address, 0);
        assertArrayEquals(cmaAddress(f.src16(), f.ipv6()), address, where + ": CMA source address");
        cma.getDestinationAddress(address, 0);
        assertArrayEquals(cmaAddress(f.dst16(), f.ipv6()), address, where + ": CMA destination address");
        if (!f.ipv6()) {
            assertEquals(f.srcIpv4(), cma.sourceIpv4(), where);
            assertEquals(f.dstIpv4(), cma.destinationIpv4(), where);
        }
        assertEquals((cma.port() * 31 + servicePort) & 0xF_FFFF, path.flowLabel(),
            where + ": RoCEv2 flow label from the ports (cma.c, cma_get_roce_udp_flow_label)");

        req.alternatePath(path);
        byte[] zeros = new byte[CmPathFlyweight.LENGTH];
        byte[] alternate = new byte[CmPathFlyweight.LENGTH];
        req.buffer().getBytes(req.offset() + CmReqFlyweight.ALTERNATE_PATH_OFFSET, alternate);
        assertArrayEquals(zeros, alternate, where + ": no alternate path on RoCE");
    }

    /** The CMA header holds an IPv4 address after 12 zero bytes, not as the ::ffff: mapping of the GID. */
    private static byte[] cmaAddress(byte[] ip16, boolean ipv6) {
        if (ipv6) {
            return ip16;
        }
        byte[] a = new byte[16];
        System.arraycopy(ip16, 12, a, 12, 4);
        return a;
    }

    private static byte[] activeIpOf(Map<Integer, Connection> connections, CmDreqFlyweight dreq, String where) {
        Connection c = connections.get(dreq.localCommId());
        if (c == null) {
            c = connection(connections, dreq.remoteCommId(), where);
        }
        return c.activeIp;
    }

    private static Connection connection(Map<Integer, Connection> connections, int activeCommId, String where) {
        Connection c = connections.get(activeCommId);
        assertNotNull(c, where + ": no REQ with comm ID 0x" + Integer.toHexString(activeCommId));
        return c;
    }

    private static void fromPassive(Connection c, RoceFrame f, String where) {
        assertArrayEquals(c.passiveIp, f.src16(), where + ": from the passive side");
        assertArrayEquals(c.activeIp, f.dst16(), where + ": to the active side");
    }

    private static void fromActive(Connection c, RoceFrame f, String where) {
        assertArrayEquals(c.activeIp, f.src16(), where + ": from the active side");
        assertArrayEquals(c.passiveIp, f.dst16(), where + ": to the passive side");
    }

    /**
     * The QPs the REQ and REP named carry the data: each side's requests go to the QPN its peer
     * announced, and start at the PSN the peer's message carried. The kernel makes the active side
     * send from the REP's starting PSN (cm.c, cm_rep_handler sets sq_psn from it) and the passive
     * side from the REQ's.
     */
    private static void dataFlowsOnTheAnnouncedQps(List<RoceFrame> frames, Connection c, String capture) {
        int activeRequests = 0;
        int passiveRequests = 0;
        int activeFirstPsn = -1;
        int passiveFirstPsn = -1;
        for (RoceFrame f : frames) {
            OpcodeInfo info = OpcodeTable.get(f.opcode());
            if (f.destQp() == GSI_QPN || info == null || !info.isRequest()) {
                continue;
            }
            if (Arrays.equals(f.src16(), c.activeIp) && f.destQp() == c.passiveQpn) {
                activeFirstPsn = activeRequests++ == 0 ? f.psn() : activeFirstPsn;
            } else if (Arrays.equals(f.src16(), c.passiveIp) && f.destQp() == c.activeQpn) {
                passiveFirstPsn = passiveRequests++ == 0 ? f.psn() : passiveFirstPsn;
            }
        }
        String what = capture + " comm ID " + Integer.toHexString(c.activeCommId);
        assertTrue(activeRequests > 0, what + ": the active side sends to the REP's QPN");
        assertTrue(passiveRequests > 0, what + ": the passive side sends to the REQ's QPN");
        assertEquals(c.passivePsn, activeFirstPsn, what + ": the active side starts at the REP's PSN");
        assertEquals(c.activePsn, passiveFirstPsn, what + ": the passive side starts at the REQ's PSN");
    }

    private static Path resource(String capture) throws URISyntaxException {
        URL url = CmCaptureTest.class.getResource("/captures/" + capture + ".pcap");
        assertNotNull(url, "captures/" + capture + ".pcap");
        return Path.of(url.toURI());
    }
}
