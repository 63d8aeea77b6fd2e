package io.jroce.benchmarks.harness;

import io.jroce.stack.transport.RocePacketHandler;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The active side of {@code udp_bw}, on its event loop: sends the datagrams of -n messages per flow
 * (or, with --read, one request per message) and retires them as the acknowledgements (or the last
 * response datagrams) come back, keeping each flow within RC's window and all flows within
 * {@link #MAX_IN_FLIGHT}. Flows take turns message by message, as QPs share an RNIC's I/O thread.
 *
 * <p>Nothing is retransmitted: a datagram the kernel drops (a full receive buffer) stalls its flow
 * until {@link #STALL_NS} without progress, when everything in flight is written off and the stall
 * counted (an ACK that is only late, the process having been descheduled, looks the same); the run
 * goes on. Datagrams really lost are counted by comparing both sides' counts at the end.
 */
final class StreamClient implements RocePacketHandler {
    /**
     * Datagrams in flight over all flows: one RC window. With more, 4096-byte datagrams would
     * overflow the 4 MiB receive buffer (the kernel charges about twice the payload), so the baseline
     * would measure its own losses; the raw pipe is full with one window, as -q 1 shows.
     */
    static final int MAX_IN_FLIGHT = BaselineOptions.RC_WINDOW;
    /** RC's default local ACK timeout (timeout 14: 4.096 us x 2^14), after which an RNIC would retransmit. */
    static final long STALL_NS = 67_108_864L;
    private static final long PEAK_INTERVAL_NS = 100_000_000L;

    /** One flow's sending state; what an RC requester keeps per QP, reduced to sequence numbers. */
    private static final class Flow {
        final int id;
        /** Next datagram sequence number to send (with --read: to request). */
        long next;
        /** Highest sequence number acknowledged. */
        long acked = -1;
        long messagesPosted;
        int sinceAckRequest;

        Flow(int id) {
            this.id = id;
        }
    }

    private final BaselineOptions o;
    private final UdpEndpoint endpoint;
    private final byte[] peer16;
    private final int peerPort;
    private final int perMessage;
    private final int[] lengths;
    private final int window;
    private final Flow[] flows;
    private final ArrayDeque<Flow> active = new ArrayDeque<>();
    private final UnsafeBuffer tx;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private boolean posting = true;
    private long inFlight;
    private long completedMessages;
    private long sentDatagrams;
    private long receivedDatagrams;
    private long lostDatagrams;
    private long refusedSends;
    private int stalls;
    private long startNs;
    private long endNs;
    private long deadlineNs;
    private long lastProgressNs;
    private long peakStartNs;
    private long peakStartMessages;
    private double peakMessagesPerSec;

    StreamClient(BaselineOptions o, UdpEndpoint endpoint, byte[] peer16, int peerPort) {
        this.o = o;
        this.endpoint = endpoint;
        this.peer16 = peer16;
        this.peerPort = peerPort;
        this.perMessage = o.packetsPerMessage();
        this.lengths = WireLayout.packetLengths(WireLayout.Operation.RDMA_WRITE, o.size(), o.mtu());
        this.window = o.read() ? o.messagesInFlight() * perMessage : o.window();
        this.flows = new Flow[o.flows()];
        for (int i = 0; i < flows.length; i++) {
            flows[i] = new Flow(i);
            active.addLast(flows[i]);
        }
        int largest = Math.max(WireLayout.READ_REQUEST_LENGTH, lengths[0]);
        this.tx = new UnsafeBuffer(ByteBuffer.allocateDirect(largest));
    }

    /** Starts sending; call on the event loop. */
    void start() {
        long now = System.nanoTime();
        startNs = lastProgressNs = peakStartNs = now;
        deadlineNs = now + o.durationSecs() * 1_000_000_000L;
        pump();
        endpoint.flush();
    }

    CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress) {
        receivedDatagrams++;
        byte kind = BaselineDatagram.kind(packet, offset);
        int flow = BaselineDatagram.flow(packet, offset);
        if (flow < 0 || flow >= flows.length) {
            return;
        }
        if (kind == BaselineDatagram.ACK
            || kind == BaselineDatagram.DATA && (BaselineDatagram.flags(packet, offset) & BaselineDatagram.LAST) != 0) {
            acknowledge(flows[flow], BaselineDatagram.seq(packet, offset) & 0xFFFF_FFFFL);
            pump(); // the transport flushes when this receive batch ends
        }
    }

    /** Every 0.5 ms, as the RNIC's timer: the -D deadline, the peak rate, stalled flows. */
    void tick() {
        long now = System.nanoTime();
        if (now - peakStartNs >= PEAK_INTERVAL_NS) {
            peakMessagesPerSec = Math.max(peakMessagesPerSec,
                (completedMessages - peakStartMessages) * 1e9 / (now - peakStartNs));
            peakStartNs = now;
            peakStartMessages = completedMessages;
        }
        if (posting && o.durationSecs() > 0 && now - deadlineNs >= 0) {
            posting = false;
        }
        if (inFlight > 0 && now - lastProgressNs > STALL_NS) {
            writeOffInFlight(now);
        }
        pump();
        endpoint.flush();
        checkDone();
    }

    private void acknowledge(Flow f, long seq) {
        if (seq <= f.acked || seq >= f.next) {
            return; // a duplicate, or one for datagrams already written off
        }
        long before = f.acked;
        f.acked = seq;
        inFlight -= seq - before;
        completedMessages += (seq + 1) / perMessage - (before + 1) / perMessage;
        lastProgressNs = System.nanoTime();
        checkDone();
    }

    private void writeOffInFlight(long now) {
        stalls++;
        for (Flow f : flows) {
            long outstanding = f.next - f.acked - 1;
            if (outstanding > 0) {
                lostDatagrams += outstanding;
                completedMessages += f.next / perMessage - (f.acked + 1) / perMessage;
                f.acked = f.next - 1;
            }
        }
        inFlight = 0;
        lastProgressNs = now;
    }

    /** Sends what the windows allow, flow after flow. */
    private void pump() {
        int idle = 0;
        while (!active.isEmpty() && idle < active.size()) {
            Flow f = active.peekFirst();
            int sent = o.read() ? request(f) : sendData(f);
            if (sent < 0) {
                return; // all flows together have a window in flight, or the socket refused
            }
            if (inFlight >= MAX_IN_FLIGHT && f.next % perMessage != 0) {
                return; // stopped within a message by the global limit: this flow goes on first next time
            }
            active.pollFirst();
            if (!finishedPosting(f)) {
                active.addLast(f);
            }
            idle = sent > 0 ? 0 : idle + 1;
        }
    }

    private boolean finishedPosting(Flow f) {
        return f.next % perMessage == 0 && (!posting || o.durationSecs() == 0 && f.messagesPosted == o.iters());
    }

    /** Sends the rest of the flow's current message, as far as the windows allow; -1 when the global one is full. */
    private int sendData(Flow f) {
        int sent = 0;
        while (true) {
            int position = (int) (f.next % perMessage);
            if (position == 0 && (sent > 0 || finishedPosting(f))) {
                return sent;
            }
            if (inFlight >= MAX_IN_FLIGHT) {
                return sent > 0 ? sent : -1;
            }
            if (f.next - f.acked - 1 >= window) {
                return sent;
            }
            boolean last = position == perMessage - 1;
            int flags = last ? BaselineDatagram.LAST : 0;
            if (last || ++f.sinceAckRequest >= BaselineOptions.ACK_REQUEST_INTERVAL) {
                flags |= BaselineDatagram.ACK_REQUEST;
                f.sinceAckRequest = 0;
            }
            BaselineDatagram.write(tx, BaselineDatagram.DATA, flags, f.id, (int) f.next);
            if (!endpoint.send(tx, lengths[position], peer16, peerPort)) {
                refusedSends++;
                return -1; // the socket's send queue is full: the next tick tries again
            }
            if (position == 0) {
                f.messagesPosted++;
            }
            f.next++;
            inFlight++;
            sentDatagrams++;
            sent++;
        }
    }

    /** Requests the flow's next message when its responses fit the windows; -1 when the global one is full. */
    private int request(Flow f) {
        if (finishedPosting(f)) {
            return 0;
        }
        if (inFlight > 0 && inFlight + perMessage > MAX_IN_FLIGHT) {
            return -1;
        }
        if (f.next - f.acked - 1 + perMessage > window) {
            return 0;
        }
        BaselineDatagram.write(tx, BaselineDatagram.REQUEST, 0, f.id, (int) (f.next / perMessage));
        if (!endpoint.send(tx, WireLayout.READ_REQUEST_LENGTH, peer16, peerPort)) {
            refusedSends++;
            return -1;
        }
        f.messagesPosted++;
        f.next += perMessage;
        inFlight += perMessage;
        sentDatagrams++;
        return 1;
    }

    private void checkDone() {
        if (inFlight > 0 || done.isDone()) {
            return;
        }
        for (Flow f : active) {
            if (!finishedPosting(f)) {
                return;
            }
        }
        endNs = lastProgressNs;
        done.complete(null);
    }

    /** The results; read after {@link #done()} completed, on the event loop. */
    StreamResult result() {
        double seconds = Math.max(1e-9, (endNs - startNs) / 1e9);
        double rate = completedMessages / seconds;
        return new StreamResult(completedMessages, seconds, Math.max(rate, peakMessagesPerSec), rate,
            sentDatagrams, receivedDatagrams, lostDatagrams, stalls, refusedSends);
    }
}
