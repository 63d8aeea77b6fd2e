package io.jroce.tools.lesson;

import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Operation;
import io.jroce.verbs.Mtu;
import java.util.List;
import java.util.Optional;

/** Every lesson, in the order a learner takes them. */
final class Catalogue {
    /** Long enough for every ACK still on its way to arrive, short of any ACK timeout. */
    private static final long SETTLE_NS = 1_000_000;

    private static final List<Lesson> ALL = List.of(
        new Lesson("first-message", "a first SEND and its ACK",
            """
            A posts one 64-byte SEND; B has posted a receive for it. The message fits in one packet, a SEND \
            ONLY, whose AckReq bit asks B to acknowledge. B places the bytes in its receive buffer, completes \
            the receive and answers with an ACK naming the PSN it received; A completes the send when the \
            ACK arrives. Every request PSN A sends counts up from the PSN A's QP was given (256 here); B's QP \
            was told to expect it. QP numbers are per device: each side's QP is the first its device hands \
            out, 0x000011, and a packet names only the QP it is for.""",
            """
            An RC message is acknowledged by PSN, not by message: the ACK says "everything up to this PSN \
            arrived in order". The MSN in the ACK counts the messages B has completed.""",
            Setup.standard(), rig -> {
                rig.postReceive(10, 64);
                rig.send(1, 64);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("segmentation", "a message larger than the path MTU goes in several packets",
            """
            A sends 2500 bytes over a path MTU of 1024. The requester cuts the message into packets of one \
            path MTU each, the last one carrying what is left: SEND FIRST (1024 B), SEND MIDDLE (1024 B), SEND \
            LAST (452 B), on consecutive PSNs. Only the LAST asks for an ACK.""",
            """
            The path MTU bounds the payload of every packet, not the message: B reassembles the message from \
            FIRST, MIDDLE and LAST in PSN order, and one ACK for the LAST's PSN covers all three.""",
            Setup.standard(), rig -> {
                rig.postReceive(10, 4096);
                rig.send(1, 2500);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("ack-coalescing", "AckReq, and one ACK that answers several requests",
            """
            A writes 3000 bytes (three packets) and then sends a 64-byte message, posted together. A request \
            asks for an ACK with its AckReq bit: the WRITE's LAST does, its FIRST and MIDDLE do not, so one \
            ACK is to cover the whole WRITE. B sends that ACK, but the fabric loses it. It does not matter: \
            the SEND's ACK names a later PSN, and an ACK acknowledges every PSN up to its own, so A completes \
            the WRITE and the SEND on that one ACK.""",
            """
            ACKs are cumulative. A requester asks for them only where it needs them (at the end of a message, \
            and every 64 packets of a long one), and any later ACK stands in for an earlier one that was lost \
            or never sent: fewer ACKs, the same information.""",
            Setup.standard(), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.acks()).once().named("drop the first ACK"));
                rig.postReceive(10, 64);
                rig.write(1, 3000);
                rig.send(2, 64);
                rig.await(2, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("lost-packet", "a lost packet, a PSN sequence error NAK and go-back-N",
            """
            A sends 4096 bytes in four packets; the fabric loses the second one (SEND MIDDLE). B receives the \
            third packet while it still expects the second's PSN: a PSN sequence error. It NAKs once, naming \
            the PSN it expects, and drops the fourth packet too. A goes back to the NAKed PSN and sends every \
            packet from there again, in order: go-back-N.""",
            """
            A responder never accepts a packet out of order, so one loss costs a NAK and the resending of \
            everything after it. The NAK's PSN is the one B expects; it is sent once per gap, not per \
            dropped packet.""",
            Setup.standard(), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once()
                    .named("drop the first SEND MIDDLE"));
                rig.postReceive(10, 4096);
                rig.send(1, 4096);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("ack-timeout", "a lost last packet, an ACK timeout and a retransmission",
            """
            A sends 2048 bytes in two packets and the fabric loses the LAST. B got the FIRST but nothing \
            after it, so there is nothing to NAK: no later packet shows the gap, and the FIRST did not ask \
            for an ACK. A hears nothing; its ACK timer (timeout 14: 4.096 us * 2^14 = 67 ms) expires and it \
            sends again from its oldest unacknowledged PSN, the FIRST. B drops that FIRST as a duplicate it \
            has already placed, then takes the LAST and ACKs.""",
            """
            Only the requester's timer recovers the loss of a message's last packet (or of its ACK). Each \
            timeout spends one of retry_cnt's retries.""",
            Setup.standard(), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_LAST)).once()
                    .named("drop the first SEND LAST"));
                rig.postReceive(10, 4096);
                rig.send(1, 2048);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("rnr", "receiver not ready: an RNR NAK, a wait and a retry",
            """
            A sends a message before B has posted a receive for it. B cannot place a SEND without a receive \
            WQE, so it answers RNR NAK (Receiver Not Ready) with the timer code its QP was given (12: 0.64 ms) \
            and executes nothing. B's application posts the receive 100 us later; A waits the time the NAK \
            named and sends the SEND again, which B now accepts.""",
            """
            An RNR NAK is flow control, not loss: it costs one of rnr_retry's retries (7 = without end) and \
            the wait the responder asked for, never data.""",
            Setup.standard(), rig -> {
                rig.send(1, 64);
                rig.runFor(100_000);
                rig.postReceive(10, 64);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("lost-read-response", "a lost READ response, an implied NAK and the READ resumed",
            """
            A reads 4096 bytes: one READ request, four READ responses from B on the PSNs the request set \
            aside. The fabric loses the second response. When the third arrives A knows the second is \
            missing: a response with a later PSN is an implied NAK. A asks again with a READ for the \
            rest, from the missing PSN, and B answers it from its memory again.""",
            """
            A responder does not know a READ response was lost; the requester sees the gap in response \
            PSNs and asks for the rest. READs may be executed again, since reading changes nothing.""",
            Setup.standard(), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2)
                    .named("drop the second READ response"));
                rig.read(1, 4096);
                rig.await(1, 0);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("duplicate-atomic", "a repeated atomic answered from the replay record",
            """
            A adds 1 to a counter in B's memory with FETCH_ADD; B adds and answers with the value before, but \
            the fabric loses that ATOMIC ACKNOWLEDGE. A's ACK timer expires and it sends the same FETCH_ADD \
            with the same PSN again. B recognises the PSN as one it executed: it must not add twice, so it \
            answers from the record it kept of the atomic, with the same original value.""",
            """
            An atomic is executed exactly once even when it arrives twice: the responder keeps a replay \
            record of its recent atomics and their results.""",
            Setup.standard(), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.operation(Operation.ATOMIC_ACKNOWLEDGE)).once()
                    .named("drop the first ATOMIC ACKNOWLEDGE"));
                rig.fetchAdd(1, 0, 1);
                rig.await(1, 0);
                rig.runFor(SETTLE_NS);
                rig.observeB("the counter holds " + rig.counterOfB(0) + " after two FETCH_ADDs of 1 with one PSN: "
                    + "the atomic ran once");
            }),
        new Lesson("psn-wrap", "PSNs wrap around from 16777215 to 0",
            """
            A's QP starts at PSN 16777214 (0xfffffe), two short of the end of the 24-bit PSN space, and sends \
            4096 bytes in four packets. Their PSNs are 16777214, 16777215, 0 and 1; B's ACK names PSN 1.""",
            """
            A PSN is 24 bits and wraps. Both ends compare PSNs modulo 2^24 (PSN 0 is after 16777215), so a \
            message, a NAK or a go-back-N across the wrap works like any other.""",
            Setup.standard().psnA(0xFFFFFE), rig -> {
                rig.postReceive(10, 4096);
                rig.send(1, 4096);
                rig.await(1, 1);
                rig.runFor(SETTLE_NS);
            }),
        new Lesson("retry-exceeded", "retries exhausted: RETRY_EXC_ERR and the flush",
            """
            A's QP has retry_cnt 2 and timeout 12 (16.8 ms). A posts two SENDs; the fabric loses every \
            request A sends. After each timeout A sends both again; when the timer expires with no retries \
            left, the first work request completes with RETRY_EXC_ERR, the QP goes to the Error state, and \
            the second work request is flushed.""",
            """
            A requester gives up after retry_cnt retries: the failed work request reports the error, and \
            every one behind it completes with WR_FLUSH_ERR without being executed.""",
            Setup.standard().timeout(12).retryCount(2), rig -> {
                rig.fault(FaultRule.drop(PacketMatch.requests()).named("drop every request"));
                rig.postReceive(10, 64);
                rig.postReceive(11, 64);
                rig.send(1, 64);
                rig.send(2, 64);
                rig.await(2, 0);
            }),
        new Lesson("cm-connect", "an RDMA CM handshake and a disconnect",
            """
            Before two RC QPs can talk, each must learn the other's QP number and first PSN. RDMA CM \
            (rdma_connect, rdma_accept) has the connection managers exchange them in MADs, management \
            datagrams sent on each device's QP1 (the General Services Interface) as UD SENDs. A sends a REQ \
            naming the service B listens on (TCP port 7471 in RDMA CM's port space), its QP and its first \
            PSN; B's application accepts, and B's REP carries B's QP and PSN; A answers ready to use with \
            an RTU. Later A disconnects: DREQ, answered by a DREP, and both sides wait out TimeWait.""",
            """
            The CM handshake is three messages, REQ, REP and RTU, and the disconnect two, DREQ and DREP; \
            each answer carries the transaction ID of what it answers. The QP numbers and PSNs that the RC \
            ladder of the other lessons starts from come from this exchange.""",
            Setup.standard(), rig -> {
                CmScene cm = new CmScene(rig, true);
                cm.connect(CmScene.SERVICE, 10_000_000);
                cm.disconnect(2_100_000_000L);
            }),
        new Lesson("cm-reject", "RDMA CM connects rejected: nobody listening, and an application's no",
            """
            A connects twice. Its first REQ names a service nobody listens on: B's connection manager \
            answers at once with a REJ, reason 8 (invalid service ID), without asking any application. The \
            second REQ names the service B listens on, but B's application rejects it (rdma_reject): a \
            REJ with reason 28, consumer reject. Each REJ ends A's attempt; A's application hears \
            REJECTED with the reason.""",
            """
            A REJ answers a REQ with a reason, and RDMA CM hands it to the application as the status of its \
            REJECTED event: 8 means nobody listens at that address and port, 28 that the peer's application \
            refused.""",
            Setup.standard(), rig -> {
                CmScene cm = new CmScene(rig, false);
                cm.connect(CmScene.NO_SERVICE, 10_000_000);
                cm.connect(CmScene.SERVICE, 10_000_000);
            }));

    private Catalogue() {
    }

    static List<Lesson> all() {
        return ALL;
    }

    static Optional<Lesson> find(String name) {
        return ALL.stream().filter(l -> l.name().equals(name)).findFirst();
    }
}
