package io.jroce.rnic.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmSidrReqFlyweight;
import io.jroce.stack.mad.CmTransactionId;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.verbs.Gid;

/**
 * SIDR (IBTA 12.11) between two devices' connection managers on the simulated fabric, with a 1 ms
 * tick: the exact SIDR_REQ and SIDR_REP, their timing, and the kernel's answers to no listener,
 * rejection, repeats and loss.
 */
class CmSidrFabricTest extends CmFabricRig {
    private static final byte[] C = Gid.parse("10.0.0.3").toBytes();
    private static final long SERVICE = ConnectionManager.udpServiceId(7174);
    private static final int UD_QPN = 0x33;
    private static final int QKEY = 0x01234567;

    private final Recorder eventsA = new Recorder();
    private final Recorder eventsB = new Recorder();

    /** Records events; by default the passive side accepts with {@link #UD_QPN}. */
    private final class Recorder implements CmEvents {
        final List<String> events = new ArrayList<>();
        final List<CmConnection> requests = new ArrayList<>();
        final List<SidrRequest> requested = new ArrayList<>();
        SidrReply reply;
        boolean answer = true;
        boolean reject;
        ConnectionManager cm;

        @Override
        public void onSidrRequest(CmConnection c, SidrRequest r) {
            events.add("SIDR_REQUEST");
            requests.add(c);
            requested.add(r);
            if (reject) {
                cm.sidrReject(c, new byte[] {9});
            } else if (answer) {
                cm.sidrAccept(c, UD_QPN, QKEY, new byte[] {1, 2, 3});
            }
        }

        @Override
        public void onSidrReply(CmConnection c, SidrReply r) {
            events.add("SIDR_REPLY " + r.status());
            reply = r;
        }

        @Override
        public void onUnreachable(CmConnection c) {
            events.add("UNREACHABLE@" + fabric.nowNs());
        }
    }

    CmSidrFabricTest() {
        eventsA.cm = cmA;
        eventsB.cm = cmB;
    }

    private static byte[] privateData() {
        byte[] pd = new byte[40];
        pd[1] = 0x40;
        pd[39] = 0x77;
        return pd;
    }

    private CmConnection request() {
        CmConnection[] c = new CmConnection[1];
        fabric.execute(() -> c[0] = cmA.sidrRequest(new SidrParams(SERVICE, A, B, privateData()), eventsA));
        fabric.runFor(10 * MS);
        return c[0];
    }

    /** Sends {@code mad} from A's GSI to B's, as any host on the network can. */
    private void inject(byte[] mad) {
        fabric.execute(() -> devA.gsi().send(new UnsafeBuffer(mad), 0, A, B, 4791));
        fabric.runFor(2 * MS);
    }

    @Test
    void sidrReqThenSidrRepWithTheExactFields() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = request();

        assertEquals(List.of(MadHeaderFlyweight.ATTR_SIDR_REQ, MadHeaderFlyweight.ATTR_SIDR_REP),
            wire.stream().map(Mad::attribute).toList());
        CmSidrReqFlyweight req = new CmSidrReqFlyweight().wrap(wire.get(0).buffer(), 0);
        long tid = wire.get(0).tid();
        assertEquals(a.localCommId(), req.requestId(), "cm_format_sidr_req: the request ID is the local ID");
        assertEquals(req.requestId(), CmTransactionId.commId(tid), "cm_form_tid");
        assertEquals(0xFFFF, req.partitionKey());
        assertEquals(SERVICE, req.serviceId());
        byte[] pd = new byte[CmSidrReqFlyweight.PRIVATE_DATA_LENGTH];
        req.getPrivateData(pd, 0, pd.length);
        assertArrayEquals(privateData(), java.util.Arrays.copyOf(pd, 40));

        assertEquals(List.of("SIDR_REQUEST"), eventsB.events);
        SidrRequest r = eventsB.requested.get(0);
        assertEquals(SERVICE, r.serviceId());
        assertEquals(0xFFFF, r.partitionKey());
        assertEquals(216, r.privateData().length);
        assertEquals(0x77, r.privateData()[39]);

        CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(wire.get(1).buffer(), 0);
        assertEquals(tid, wire.get(1).tid(), "the SIDR_REP echoes the SIDR_REQ's TID");
        assertEquals(a.localCommId(), rep.requestId());
        assertEquals(0, rep.status());
        assertEquals(0, rep.additionalInfoLength());
        assertEquals(UD_QPN, rep.qpn());
        assertEquals(SERVICE, rep.serviceId());
        assertEquals(QKEY, rep.qKey());

        assertEquals(List.of("SIDR_REPLY 0"), eventsA.events);
        assertEquals(UD_QPN, eventsA.reply.qpn());
        assertEquals(QKEY, eventsA.reply.qKey());
        assertEquals(136, eventsA.reply.privateData().length);
        assertEquals(3, eventsA.reply.privateData()[2]);
        assertEquals(CmState.IDLE, a.state());
        assertEquals(0, cmA.connections(), "no TimeWait for SIDR");
        assertEquals(0, cmB.connections());
        assertEquals(1L, count(devA, "cm_tx_sidr_req"));
        assertEquals(1L, count(devB, "cm_rx_sidr_req"));
        assertEquals(1L, count(devB, "cm_tx_sidr_rep"));
        assertEquals(1L, count(devA, "cm_rx_sidr_rep"));

        fabric.runFor(100_000 * MS);
        assertEquals(2, wire.size(), "nothing retransmitted");
    }

    @Test
    void aLostSidrReqIsSentAgainAfterExactly4096Ms() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_SIDR_REQ
            && sent(MadHeaderFlyweight.ATTR_SIDR_REQ).size() == 1;
        CmConnection a = request();
        assertEquals(CmState.SIDR_REQ_SENT, a.state());
        fabric.runFor(4200 * MS);
        List<Mad> reqs = sent(MadHeaderFlyweight.ATTR_SIDR_REQ);
        assertEquals(2, reqs.size());
        assertEquals(4096 * MS, reqs.get(1).atNs() - reqs.get(0).atNs(), "cma_resolve_ib_udp: 1 << (20 - 8) ms");
        assertArrayEquals(reqs.get(0).bytes(), reqs.get(1).bytes(), "the same SIDR_REQ");
        assertEquals(List.of("SIDR_REPLY 0"), eventsA.events);
        assertEquals(1L, count(devA, "cm_retransmits"));
    }

    @Test
    void aSidrReqNeverAnsweredIsSent16TimesThenUnreachable() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> true;
        request();
        long start = sent(MadHeaderFlyweight.ATTR_SIDR_REQ).get(0).atNs();
        fabric.runFor(16 * 4096 * MS + 100 * MS);
        List<Mad> reqs = sent(MadHeaderFlyweight.ATTR_SIDR_REQ);
        assertEquals(16, reqs.size(), "the SIDR_REQ and 15 retries");
        for (int i = 1; i < reqs.size(); i++) {
            assertEquals(start + i * 4096 * MS, reqs.get(i).atNs());
        }
        assertEquals(List.of("UNREACHABLE@" + (start + 16 * 4096 * MS)), eventsA.events);
        assertEquals(0, cmA.connections());
        assertEquals(15L, count(devA, "cm_retransmits"));
    }

    @Test
    void aSidrReqForNoListenerGetsStatus1AtOnce() {
        cmB.listen(ConnectionManager.tcpServiceId(7174), eventsB); // the TCP port space's 7174 is another service
        CmConnection a = request();
        assertEquals(List.of("SIDR_REPLY 1"), eventsA.events);
        assertEquals(List.of(), eventsB.events);
        CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(sent(MadHeaderFlyweight.ATTR_SIDR_REP).get(0).buffer(), 0);
        assertEquals(CmSidrRepFlyweight.STATUS_UNSUPPORTED, rep.status());
        assertEquals(a.localCommId(), rep.requestId());
        assertEquals(SERVICE, rep.serviceId(), "the request's service ID, echoed");
        assertEquals(0, rep.qpn());
        assertEquals(0, rep.qKey());
        assertEquals(wire.get(0).tid(), wire.get(1).tid());
        assertEquals(0, cmB.connections());
    }

    @Test
    void aRejectedSidrReqGetsStatus2WithThePrivateData() {
        cmB.listen(SERVICE, eventsB);
        eventsB.reject = true;
        request();
        assertEquals(List.of("SIDR_REPLY 2"), eventsA.events);
        CmSidrRepFlyweight rep = new CmSidrRepFlyweight().wrap(sent(MadHeaderFlyweight.ATTR_SIDR_REP).get(0).buffer(), 0);
        assertEquals(CmSidrRepFlyweight.STATUS_REJECT, rep.status());
        assertEquals(0, rep.qpn());
        assertEquals(9, eventsA.reply.privateData()[0]);
        assertEquals(0, cmB.connections());
    }

    @Test
    void aRepeatWhileUnansweredIsDroppedAndARepeatAfterTheAnswerIsANewRequest() {
        cmB.listen(SERVICE, eventsB);
        eventsB.answer = false;
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_SIDR_REP;
        CmConnection a = request();
        fabric.runFor(4100 * MS); // the retry reaches B while the first is unanswered
        assertEquals(2, sent(MadHeaderFlyweight.ATTR_SIDR_REQ).size());
        assertEquals(List.of("SIDR_REQUEST"), eventsB.events, "cm_insert_remote_sidr: a duplicate");
        assertEquals(1L, count(devB, "cm_drop_unexpected"));
        assertEquals(1, cmB.connections());

        // cm_send_sidr_rep_locked takes the request out of the table: the next retry is a new request.
        fabric.execute(() -> cmB.sidrAccept(eventsB.requests.get(0), UD_QPN, QKEY, new byte[0]));
        fabric.runFor(4200 * MS);
        assertEquals(3, sent(MadHeaderFlyweight.ATTR_SIDR_REQ).size());
        assertEquals(List.of("SIDR_REQUEST", "SIDR_REQUEST"), eventsB.events);
        assertEquals(CmState.SIDR_REQ_RCVD, eventsB.requests.get(1).state());
        assertEquals(eventsB.requests.get(0).remoteCommId(), eventsB.requests.get(1).remoteCommId());

        drop = m -> false;
        fabric.execute(() -> cmB.sidrAccept(eventsB.requests.get(1), UD_QPN, QKEY, new byte[0]));
        fabric.runFor(10 * MS);
        assertEquals(List.of("SIDR_REPLY 0"), eventsA.events);
        assertEquals(CmState.IDLE, a.state());
        // A late copy of the reply finds the request answered.
        inject(sent(MadHeaderFlyweight.ATTR_SIDR_REP).get(0).bytes());
        assertEquals(List.of("SIDR_REPLY 0"), eventsA.events);
    }

    @Test
    void manyUdClientsOnOneListenerEachGetTheirAnswer() {
        cmB.listen(SERVICE, eventsB);
        List<CmConnection> cs = new ArrayList<>();
        fabric.execute(() -> {
            for (int i = 0; i < 50; i++) {
                cs.add(cmA.sidrRequest(new SidrParams(SERVICE, A, B, privateData()), eventsA));
            }
        });
        fabric.runFor(10 * MS);
        assertEquals(50, eventsB.events.size());
        assertEquals(50, eventsA.events.stream().filter("SIDR_REPLY 0"::equals).count());
        List<Integer> requestIds = sent(MadHeaderFlyweight.ATTR_SIDR_REP).stream()
            .map(m -> new CmSidrRepFlyweight().wrap(m.buffer(), 0).requestId()).toList();
        assertEquals(cs.stream().map(CmConnection::localCommId).toList(), requestIds, "each request answered, in order");
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
    }

    @Test
    void aReplyFromAnotherAddressOrForNoRequestIsDroppedAndCounted() {
        cmB.listen(SERVICE, eventsB);
        eventsB.answer = false;
        CmConnection a = request();
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REP, 1);
        new CmSidrRepFlyweight().wrap(buf, 0).requestId(a.localCommId()).qpn(0x99).qKey(QKEY).serviceId(SERVICE);
        // From C to A: not the address the request went to.
        try (SoftDevice devC = (SoftDevice) SoftRnic.builder().name("c").address("10.0.0.3").openOn(fabric)) {
            fabric.execute(() -> devC.gsi().send(buf, 0, C, A, 4791));
            fabric.runFor(2 * MS);
        }
        new CmSidrRepFlyweight().wrap(buf, 0).requestId(a.localCommId() + 1);
        fabric.execute(() -> devB.gsi().send(buf, 0, B, A, 4791));
        fabric.runFor(2 * MS);
        assertEquals(2L, count(devA, "cm_drop_unmatched"));
        new CmSidrRepFlyweight().wrap(buf, 0).requestId(a.localCommId()).additionalInfoLength(73);
        fabric.execute(() -> devB.gsi().send(buf, 0, B, A, 4791));
        fabric.runFor(2 * MS);
        assertEquals(1L, count(devA, "cm_drop_bad_mad"), "additional information longer than its 72 bytes");
        assertEquals(List.of(), eventsA.events);
        assertEquals(CmState.SIDR_REQ_SENT, a.state());
    }

    @Test
    void destroyingARequestReceivedSendsStatus2AndOneSentIsCancelledSilently() {
        cmB.listen(SERVICE, eventsB);
        eventsB.answer = false;
        CmConnection a = request();
        fabric.execute(() -> cmB.destroy(eventsB.requests.get(0)));
        fabric.runFor(10 * MS);
        assertEquals(List.of("SIDR_REPLY 2"), eventsA.events, "cm_destroy_id in SIDR_REQ_RCVD: IB_SIDR_REJECT");
        assertEquals(CmState.IDLE, a.state());

        CmConnection b = request();
        fabric.execute(() -> cmA.destroy(b));
        fabric.runFor(100_000 * MS);
        assertEquals(2, sent(MadHeaderFlyweight.ATTR_SIDR_REQ).size(), "no retry after destroy");
        assertEquals(0, cmA.connections());
    }

    @Test
    void privateDataBeyondTheFieldsIsRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> cmA.sidrRequest(new SidrParams(SERVICE, A, B, new byte[217]), eventsA));
    }
}
