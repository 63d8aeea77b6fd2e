package io.jroce.rnic.core;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * One RC QP's engines built alone, without a device: a transport that records every packet, a
 * completion sink that records every completion, a scheduler that records wake-ups, and time as
 * a plain long the test passes in.
 */
final class EngineRig {
    static final int QPN = 0x11;
    static final int PEER_QPN = 0x22;
    static final int MTU = 256;

    final Counters counters = new Counters();
    /** Every protocol event of the rig's engines, and the drops counted. */
    final RecordingProtocolEvents events = new RecordingProtocolEvents();
    final KeyTable keys = new KeyTable();
    final RecordingTransport transport = new RecordingTransport();
    final List<QpContext> scheduled = new ArrayList<>();
    final QpScheduler scheduler = scheduled::add;
    final TransmitBudget budget;
    /** Turns of the I/O loop the response pacer asked for. */
    int pacerWakes;
    final ResponsePacer pacer = new ResponsePacer(() -> pacerWakes++);
    final RnicContext ctx;
    final RecordingSink sendCq = new RecordingSink();
    final RecordingSink recvCq = new RecordingSink();
    /** No protection domain object: the test regions and the QP share the null identity. */
    final ProtectionDomain pd = null;
    final QpContext qp;
    final QpTransport t;
    int fatalErrors;

    EngineRig(int budgetPackets) {
        budget = new TransmitBudget(budgetPackets, TransmitBudget.DEFAULT_WAKE_QUANTUM, scheduler);
        counters.dropListener(events);
        ctx = new RnicContext(counters, keys, new PacketSender(transport, counters), budget, scheduler, pacer, events);
        WorkQueueRing<SendWqe> sq = new WorkQueueRing<>(16, () -> new SendWqe(1, 4096));
        WorkQueueRing<RecvWqe> rq = new WorkQueueRing<>(16, () -> new RecvWqe(1));
        qp = new QpContext(QPN, QpType.RC, pd, sq, rq, null, sendCq, recvCq);
        qp.av = new AddressVector().destGid(Gid.parse("10.0.0.2"));
        qp.mtu = MTU;
        qp.destQpn = PEER_QPN;
        qp.maxRdAtomic = 4;
        qp.maxDestRdAtomic = 4;
        t = new QpTransport(ctx, qp, () -> fatalErrors++);
    }

    /** Runs turns of the I/O loop until no response is left to send, as the engine's drain does. */
    void sendResponses() {
        while (pacer.run(ResponsePacer.TURN_QUOTA)) {
            // each turn sends at most the quota
        }
    }

    /** Moves the QP to RTS with these attributes and first PSN, as Modify QP would. */
    EngineRig rts(int sqPsn, int timeout, int retryCount, int rnrRetry) {
        qp.timeout = timeout;
        qp.retryCount = retryCount;
        qp.rnrRetry = rnrRetry;
        qp.state = QpState.RTS;
        t.requester.reset(sqPsn);
        t.responder.reset(0);
        return this;
    }

    /** Posts a signaled SEND of {@code length} inline bytes (byte i = i). */
    void postSend(long wrId, int length) {
        SendWqe w = qp.sq.claim();
        w.sg.clear();
        w.isInline = true;
        for (int i = 0; i < length; i++) {
            w.inlineView.putByte(i, (byte) i);
        }
        fill(w, wrId, WrOpcode.SEND, length);
        qp.sq.publish();
    }

    /** Posts a signaled SEND of {@code length} bytes gathered from {@code local} at offset 0. */
    void postSendFrom(long wrId, TestRegion local, int length) {
        SendWqe w = qp.sq.claim();
        w.sg.load(new SendWorkRequest().sgList(new ScatterGatherEntry(local.address(), length, local.lkey())),
            pd, keys, 0);
        w.isInline = false;
        fill(w, wrId, WrOpcode.SEND, length);
        qp.sq.publish();
    }

    /** Posts a receive of {@code length} bytes into {@code local} at offset 0 on the QP's own queue. */
    void postRecv(long wrId, TestRegion local, int length) {
        RecvWqe r = qp.rq.claim();
        r.sg.load(new ReceiveWorkRequest().sgList(new ScatterGatherEntry(local.address(), length, local.lkey())),
            pd, keys, 0);
        r.wrId = wrId;
        qp.rq.publish();
    }

    /** A request packet of {@code opcode} without extension headers (a SEND) from the peer, asking for an ACK. */
    void request(int opcode, int psn, byte[] payload, long nowNs) {
        RocePacket p = incoming(opcode, psn, payload.length);
        p.bth().ackRequest(true);
        inBuffer.putBytes(p.payloadOffset(), payload);
        t.responder.onRequest(received(p), nowNs);
    }

    /** Posts a signaled RDMA READ of {@code length} bytes into {@code local} from offset 0. */
    void postRead(long wrId, TestRegion local, int length, long remoteAddress, int rkey) {
        SendWqe w = qp.sq.claim();
        w.sg.load(new SendWorkRequest().sgList(new ScatterGatherEntry(local.address(), length, local.lkey())),
            pd, keys, 0);
        w.isInline = false;
        fill(w, wrId, WrOpcode.RDMA_READ, length);
        w.remoteAddress = remoteAddress;
        w.rkey = rkey;
        qp.sq.publish();
    }

    private static void fill(SendWqe w, long wrId, WrOpcode op, int length) {
        w.wrId = wrId;
        w.opcode = op;
        w.signaled = true;
        w.fence = false;
        w.solicited = false;
        w.length = length;
        w.resetProgress();
    }

    /** An ACKNOWLEDGE from the peer: ACK, RNR NAK or NAK as {@code syndrome} says. */
    void acknowledge(int psn, int syndrome, long nowNs) {
        RocePacket p = incoming(Opcode.RC_ACKNOWLEDGE, psn, 0);
        p.aeth().syndrome(syndrome).msn(0);
        t.completer.onAcknowledge(received(p), nowNs);
    }

    void ack(int psn, long nowNs) {
        acknowledge(psn, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), nowNs);
    }

    void nak(int psn, NakCode code, long nowNs) {
        acknowledge(psn, AethSyndrome.nak(code), nowNs);
    }

    /** An RDMA READ request from the peer, as the responder receives it. */
    void readRequest(int psn, long va, int rkey, int length, long nowNs) {
        RocePacket p = incoming(Opcode.RC_RDMA_READ_REQUEST, psn, 0);
        p.bth().ackRequest(true);
        p.reth().virtualAddress(va).rKey(rkey).dmaLength(length);
        t.responder.onRequest(received(p), nowNs);
    }

    /** An RDMA WRITE ONLY from the peer asking for an ACK. */
    void writeOnly(int psn, long va, int rkey, byte[] payload, long nowNs) {
        RocePacket p = incoming(Opcode.RC_RDMA_WRITE_ONLY, psn, payload.length);
        p.bth().ackRequest(true);
        p.reth().virtualAddress(va).rKey(rkey).dmaLength(payload.length);
        inBuffer.putBytes(p.payloadOffset(), payload);
        t.responder.onRequest(received(p), nowNs);
    }

    /** An RDMA READ response packet carrying {@code payload}. */
    void readResponse(int opcode, int psn, byte[] payload, long nowNs) {
        RocePacket p = incoming(opcode, psn, payload.length);
        if (opcode != Opcode.RC_RDMA_READ_RESPONSE_MIDDLE) {
            p.aeth().syndrome(AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT)).msn(0);
        }
        inBuffer.putBytes(p.payloadOffset(), payload);
        t.completer.onReadResponse(received(p), nowNs);
    }

    private final UnsafeBuffer inBuffer = new UnsafeBuffer(new byte[8192]);
    private final RocePacket building = new RocePacket();
    private final RocePacket parsed = new RocePacket();
    private int inLength;

    private RocePacket incoming(int opcode, int psn, int payloadLength) {
        inLength = building.build(inBuffer, 0, opcode, payloadLength);
        building.bth().partitionKey(0xFFFF).destQp(QPN).psn(psn);
        return building;
    }

    private RocePacket received(RocePacket built) {
        if (parsed.wrap(inBuffer, 0, inLength) != ParseResult.OK) {
            throw new AssertionError("test built a bad packet");
        }
        return parsed;
    }

    /** Every packet the engines sent, parsed back. */
    static final class RecordingTransport implements RoceTransport {
        final List<byte[]> packets = new ArrayList<>();

        @Override
        public void start(RocePacketHandler handler) {
        }

        @Override
        public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress,
                            int dstPort) {
            byte[] copy = new byte[length];
            packet.getBytes(offset, copy);
            packets.add(copy);
            return true;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        /** The packets sent since the last call, parsed, as "OPCODE_NAME psn". */
        List<String> take() {
            List<String> out = new ArrayList<>();
            for (byte[] b : packets) {
                RocePacket p = new RocePacket();
                if (p.wrap(new UnsafeBuffer(b), 0, b.length) != ParseResult.OK) {
                    throw new AssertionError("engine sent a packet that does not parse");
                }
                out.add(p.info().name() + " " + p.bth().psn());
            }
            packets.clear();
            return out;
        }
    }

    /** Every completion published, copied, as "wrId STATUS OPCODE byteLen". */
    static final class RecordingSink implements CompletionSink {
        final List<WorkCompletion> completions = new ArrayList<>();
        private final WorkCompletion entry = new WorkCompletion();

        @Override
        public WorkCompletion claim() {
            return entry;
        }

        @Override
        public void publish(boolean solicited) {
            completions.add(new WorkCompletion().copyFrom(entry));
        }

        List<String> take() {
            List<String> out = new ArrayList<>();
            for (WorkCompletion wc : completions) {
                out.add(wc.wrId() + " " + wc.status() + " " + wc.opcode() + " " + wc.byteLen());
            }
            completions.clear();
            return out;
        }
    }

    /** A registered region over a heap-backed direct buffer, keyed in {@code keys}. */
    static final class TestRegion implements RegionAccess {
        final ByteBuffer memory;
        final UnsafeBuffer view;
        final ProtectionDomain pd;
        final int key;

        TestRegion(KeyTable keys, ProtectionDomain pd, int length) {
            this.memory = ByteBuffer.allocateDirect(length);
            this.view = new UnsafeBuffer(memory);
            this.pd = pd;
            this.key = keys.allocate(this);
        }

        @Override
        public UnsafeBuffer view() {
            return view;
        }

        @Override
        public long offsetOf(long va, long len) {
            long off = va - address();
            return off < 0 || off + len > view.capacity() ? -1 : off;
        }

        @Override
        public boolean allows(int flags) {
            return true;
        }

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public long address() {
            return view.addressOffset();
        }

        @Override
        public long length() {
            return view.capacity();
        }

        @Override
        public int lkey() {
            return key;
        }

        @Override
        public int rkey() {
            return key;
        }

        @Override
        public int access() {
            return 0;
        }

        @Override
        public ProtectionDomain protectionDomain() {
            return pd;
        }

        @Override
        public ByteBuffer buffer() {
            return memory;
        }

        @Override
        public void close() {
        }
    }
}
