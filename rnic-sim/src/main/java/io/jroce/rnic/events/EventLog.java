package io.jroce.rnic.events;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import io.jroce.stack.fault.FaultAction;
import io.jroce.stack.fault.FaultListener;
import io.jroce.stack.fault.OutgoingPacket;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.Gid;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * A device's event log: what it sent and received, packet by packet, and its protocol events, as
 * JSON text sequences (RFC 7464: each record is 0x1E, one JSON object, a line feed), in the spirit
 * of QUIC's qlog. The first record describes the log; every other one is
 * {@code {"time": ns, "name": "roce:...", "data": {...}}}. docs/event-log.md is the schema.
 *
 * <p>Written with Jackson's streaming generator, on the thread that does the device's work (one at
 * a time: the methods are synchronized for the invoker mode's hand-overs). Nothing is allocated per
 * event beyond the generator's buffer: names are constants, addresses are cached strings. An I/O
 * error stops the log (it is reported once, by {@link #close}) and never the device. As a
 * {@link FaultListener} it marks the faults the network injects into the device's packets.
 */
public final class EventLog implements FaultListener, AutoCloseable {
    /** The log's format name, in its first record. */
    public static final String FORMAT = "jroce-event-log";
    /** The schema's version, in its first record. */
    public static final int VERSION = 1;
    /** The transport timer's name in timer records (the local ACK timeout, IBTA 9.7.6.1.3). */
    static final String ACK_TIMER = "ack";
    /** The RNR timer's name in timer records (an RNR NAK's wait, IBTA 9.7.5.2.8). */
    static final String RNR_TIMER = "rnr";
    private static final char RS = 0x1E;
    private static final int ADDRESS_CACHE = 16;

    private final JsonGenerator json;
    private final LongSupplier clock;
    private final RocePacket packet = new RocePacket();
    private final byte[][] cachedAddresses = new byte[ADDRESS_CACHE][];
    private final String[] cachedText = new String[ADDRESS_CACHE];
    private int cached;
    private long frames;
    private long arrivals;
    /** The arrival being handled (0: none), which a drop counted meanwhile on its thread names. */
    private long arrival;
    private Thread arrivalThread;
    /** A refused arrival (bad ICRC) ends at the drop its transport counts next; others when handled. */
    private boolean arrivalEndsAtDrop;
    private long arrivalFrame;
    private String arrivalSrc;
    /** The arrival's opcode name (a constant), or null when it did not parse. */
    private String arrivalOpcode;
    private int arrivalQpn;
    private int arrivalPsn;
    private IOException failure;
    private boolean closed;

    /**
     * Starts a log on {@code out} (which it closes when the log closes) with its first record.
     *
     * @param out where the records go
     * @param clock the device's clock, in nanoseconds (virtual on the simulated fabric)
     * @param device the device's name
     * @param gids the device's GIDs
     * @param virtualTime whether {@code clock} is the simulated fabric's virtual clock
     */
    public EventLog(OutputStream out, LongSupplier clock, String device, List<Gid> gids, boolean virtualTime) {
        this.clock = clock;
        try {
            json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
            json.setRootValueSeparator(null);
            json.writeRaw(RS);
            json.writeStartObject();
            json.writeStringField("format", FORMAT);
            json.writeNumberField("version", VERSION);
            json.writeStringField("device", device);
            json.writeArrayFieldStart("gids");
            for (Gid g : gids) {
                json.writeString(g.toString());
            }
            json.writeEndArray();
            json.writeStringField("clock", virtualTime ? "virtual" : "monotonic");
            json.writeStringField("time_unit", "ns");
            json.writeEndObject();
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the event log of " + device, e);
        }
    }

    /** Closed, or failed to write: events after that are dropped. */
    private boolean stopped() {
        return closed || failure != null;
    }

    private void begin(String name) throws IOException {
        json.writeRaw(RS);
        json.writeStartObject();
        json.writeNumberField("time", clock.getAsLong());
        json.writeStringField("name", name);
        json.writeObjectFieldStart("data");
    }

    private void end() throws IOException {
        json.writeEndObject();
        json.writeEndObject();
        json.writeRaw('\n');
    }

    /**
     * A packet this device handed to the network.
     *
     * @param buffer the packet, BTH to the end of the pad
     * @param offset where it starts
     * @param length its length
     * @param src the local address, 16 bytes
     * @param dst the peer's address, 16 bytes
     * @param dstPort the peer's UDP port
     * @return the packet's frame number, which a network that carries it takes to the receiver; 0
     *     once the log has stopped
     */
    public synchronized long packetSent(DirectBuffer buffer, int offset, int length, byte[] src, byte[] dst,
                                        int dstPort) {
        if (stopped()) {
            return 0;
        }
        try {
            begin("roce:packet_sent");
            json.writeNumberField("frame", ++frames);
            packetFields(buffer, offset, length, src, dst, dstPort);
            end();
        } catch (IOException e) {
            failure = e;
        }
        return frames;
    }

    /**
     * A packet the network delivered to this device, before the device checks it: the arrival it
     * starts lasts until {@link #arrivalHandled}, and a drop the device counts on this thread
     * meanwhile names it.
     *
     * @param buffer the packet, BTH to the end of the pad
     * @param offset where it starts
     * @param length its length
     * @param src the sender's address, 16 bytes
     * @param srcPort the sender's UDP port
     * @param dst the local address it came to, 16 bytes
     * @param frame the sender's frame number, carried by the network (the simulated fabric); 0 when
     *     it carried none
     */
    public synchronized void packetReceived(DirectBuffer buffer, int offset, int length, byte[] src, int srcPort,
                                            byte[] dst, long frame) {
        received(buffer, offset, length, src, srcPort, dst, frame, false);
    }

    /**
     * A packet whose ICRC did not verify, which the transport drops right after this call: logged
     * as an arrival with {@code "icrc": "bad"}, named by the {@code drop_bad_icrc} drop that follows.
     *
     * @param buffer the packet as it arrived, BTH to the end of the pad
     * @param offset where it starts
     * @param length its length
     * @param src the sender's address, 16 bytes
     * @param srcPort the sender's UDP port
     * @param dst the local address it came to, 16 bytes
     * @param frame the sender's frame number, 0 when the network carried none
     */
    public synchronized void badIcrcReceived(DirectBuffer buffer, int offset, int length, byte[] src, int srcPort,
                                             byte[] dst, long frame) {
        received(buffer, offset, length, src, srcPort, dst, frame, true);
    }

    /** The arrival that {@link #packetReceived} started on this thread is handled. */
    public synchronized void arrivalHandled() {
        if (arrivalThread == Thread.currentThread() && !arrivalEndsAtDrop) {
            endArrival();
        }
    }

    private void received(DirectBuffer buffer, int offset, int length, byte[] src, int srcPort, byte[] dst,
                          long frame, boolean badIcrc) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:packet_received");
            json.writeNumberField("arrival", ++arrivals);
            if (frame > 0) {
                json.writeNumberField("frame", frame);
            }
            if (badIcrc) {
                json.writeStringField("icrc", "bad");
            }
            arrivalSrc = packetFields(buffer, offset, length, src, dst, srcPort);
            end();
        } catch (IOException e) {
            failure = e;
            return;
        }
        arrival = arrivals;
        arrivalThread = Thread.currentThread();
        arrivalEndsAtDrop = badIcrc;
        arrivalFrame = frame;
        arrivalOpcode = packet.info() == null ? null : packet.info().name();
        arrivalQpn = arrivalOpcode == null ? 0 : packet.bth().destQp();
        arrivalPsn = arrivalOpcode == null ? 0 : packet.bth().psn();
    }

    private void endArrival() {
        arrival = 0;
        arrivalThread = null;
        arrivalEndsAtDrop = false;
    }

    /** Writes the packet's fields; returns its source address's text. */
    private String packetFields(DirectBuffer buffer, int offset, int length, byte[] src, byte[] dst, int port)
        throws IOException {
        String srcText = address(src);
        json.writeStringField("src", srcText);
        json.writeStringField("dst", address(dst));
        json.writeNumberField("udp_port", port);
        json.writeNumberField("length", length);
        ParseResult parsed = packet.wrap(buffer, offset, length);
        if (parsed != ParseResult.OK) {
            json.writeStringField("malformed", parsed.name());
            return srcText;
        }
        json.writeStringField("opcode", packet.info().name());
        json.writeNumberField("dst_qpn", packet.bth().destQp());
        json.writeNumberField("psn", packet.bth().psn());
        json.writeBooleanField("ack_req", packet.bth().ackRequest());
        json.writeNumberField("payload", packet.payloadLength());
        if (packet.info().has(ExtensionHeader.AETH)) {
            json.writeNumberField("syndrome", packet.aeth().syndrome());
            json.writeNumberField("msn", packet.aeth().msn());
        }
        if (packet.info().has(ExtensionHeader.DETH)) {
            json.writeNumberField("src_qpn", packet.deth().sourceQp());
        }
        if (packet.info().has(ExtensionHeader.RETH)) {
            json.writeNumberField("va", packet.reth().virtualAddress());
            json.writeNumberField("rkey", packet.reth().rKey() & 0xFFFFFFFFL);
            json.writeNumberField("dma_length", packet.reth().dmaLength());
        }
        if (packet.info().has(ExtensionHeader.ATOMIC_ETH)) {
            json.writeNumberField("va", packet.atomicEth().virtualAddress());
            json.writeNumberField("rkey", packet.atomicEth().rKey() & 0xFFFFFFFFL);
            json.writeNumberField("swap_add", packet.atomicEth().swapAddData());
            json.writeNumberField("compare", packet.atomicEth().compareData());
        }
        if (packet.info().has(ExtensionHeader.ATOMIC_ACK_ETH)) {
            json.writeNumberField("original", packet.atomicAckEth().originalRemoteData());
        }
        if (packet.info().has(ExtensionHeader.IMM_DT)) {
            json.writeNumberField("imm", packet.immDt().immediateData() & 0xFFFFFFFFL);
        }
        if (packet.info().has(ExtensionHeader.IETH)) {
            json.writeNumberField("invalidate_rkey", packet.ieth().rKey() & 0xFFFFFFFFL);
        }
        return srcText;
    }

    /**
     * The network (the simulated fabric, or a fault injector on UDP) did {@code action} to a packet
     * this device sent, the one of {@code frame}.
     */
    @Override
    public synchronized void faultInjected(FaultAction action, String cause, OutgoingPacket packet, long frame) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:fault_injected");
            json.writeStringField("action", action.name());
            json.writeStringField("cause", cause);
            if (frame > 0) {
                json.writeNumberField("frame", frame);
            }
            OpcodeInfo info = packet.info();
            if (info != null) {
                json.writeStringField("opcode", info.name());
                json.writeNumberField("dst_qpn", packet.destQp());
                json.writeNumberField("psn", packet.psn());
            }
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    /** The text of a 16-byte address, from a small cache: a device talks to few peers. */
    private String address(byte[] a) {
        for (int i = 0; i < cached; i++) {
            if (Arrays.equals(cachedAddresses[i], a)) {
                return cachedText[i];
            }
        }
        String text;
        try {
            text = Gid.of(a.clone()).toInetAddress().getHostAddress();
        } catch (RuntimeException e) {
            text = Arrays.toString(a);
        }
        int slot = cached < ADDRESS_CACHE ? cached++ : (int) (frames % ADDRESS_CACHE);
        cachedAddresses[slot] = a.clone();
        cachedText[slot] = text;
        return text;
    }

    synchronized void qpStateChanged(int qpn, QpState from, QpState to) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:qp_state_updated");
            json.writeNumberField("qpn", qpn);
            json.writeStringField("old", from.name());
            json.writeStringField("new", to.name());
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void nak(boolean sent, int qpn, int psn, int syndrome) {
        if (stopped()) {
            return;
        }
        try {
            begin(sent ? "roce:nak_sent" : "roce:nak_received");
            json.writeNumberField("qpn", qpn);
            json.writeNumberField("psn", psn);
            json.writeNumberField("syndrome", syndrome);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void retry(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:retry");
            json.writeNumberField("qpn", qpn);
            json.writeNumberField("from_psn", fromPsn);
            json.writeStringField("cause", cause.name());
            json.writeNumberField("retries_left", retriesLeft);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void rnrWait(int qpn, int psn, long delayNs) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:rnr_wait");
            json.writeNumberField("qpn", qpn);
            json.writeNumberField("psn", psn);
            json.writeNumberField("delay_ns", delayNs);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void psnState(int qpn, String side, String firstName, int first, String secondName, int second) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:psn_state_updated");
            json.writeNumberField("qpn", qpn);
            json.writeStringField("side", side);
            json.writeNumberField(firstName, first);
            json.writeNumberField(secondName, second);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void timerSet(int qpn, String timer, long timeoutNs) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:timer_set");
            json.writeNumberField("qpn", qpn);
            json.writeStringField("timer", timer);
            json.writeNumberField("timeout_ns", timeoutNs);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    /** A timer ran out; {@code retriesLeft} is written for the ACK timer only (-1: none to write). */
    synchronized void timerExpired(int qpn, String timer, int retriesLeft) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:timer_expired");
            json.writeNumberField("qpn", qpn);
            json.writeStringField("timer", timer);
            if (retriesLeft >= 0) {
                json.writeNumberField("retries_left", retriesLeft);
            }
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void sendPosted(int qpn, long wrId, WrOpcode opcode, long length, boolean signaled) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:wqe_posted");
            json.writeStringField("queue", "send");
            json.writeNumberField("qpn", qpn);
            json.writeNumberField("wr_id", wrId);
            json.writeStringField("opcode", opcode.name());
            json.writeNumberField("length", length);
            json.writeBooleanField("signaled", signaled);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void receivePosted(int qpn, long wrId, long length) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:wqe_posted");
            if (qpn < 0) {
                json.writeStringField("queue", "srq");
            } else {
                json.writeStringField("queue", "recv");
                json.writeNumberField("qpn", qpn);
            }
            json.writeNumberField("wr_id", wrId);
            json.writeNumberField("length", length);
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    synchronized void completion(WorkCompletion wc) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:cqe_generated");
            json.writeNumberField("qpn", wc.qpNum());
            json.writeNumberField("wr_id", wc.wrId());
            json.writeStringField("status", wc.status().name());
            if (wc.opcode() != null) {
                json.writeStringField("opcode", wc.opcode().name()); // not defined for every error completion
            }
            json.writeNumberField("byte_len", wc.byteLen());
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    /** A drop of what the device sent (an answer it could not send), not of the arrival it handles. */
    private static boolean sendSide(Counter reason) {
        return reason == Counter.DROP_TX_FAILED || reason == Counter.DROP_NO_ROUTE;
    }

    synchronized void dropped(Counter reason, long count) {
        if (stopped()) {
            return;
        }
        try {
            begin("roce:packet_dropped");
            json.writeStringField("reason", reason.counterName());
            json.writeNumberField("count", count);
            if (arrival > 0 && arrivalThread == Thread.currentThread() && !sendSide(reason)) {
                json.writeNumberField("arrival", arrival);
                if (arrivalFrame > 0) {
                    json.writeNumberField("frame", arrivalFrame);
                }
                json.writeStringField("src", arrivalSrc);
                if (arrivalOpcode != null) {
                    json.writeStringField("opcode", arrivalOpcode);
                    json.writeNumberField("dst_qpn", arrivalQpn);
                    json.writeNumberField("psn", arrivalPsn);
                }
                if (arrivalEndsAtDrop) {
                    endArrival();
                }
            }
            end();
        } catch (IOException e) {
            failure = e;
        }
    }

    /**
     * Writes out what is buffered.
     *
     * @throws UncheckedIOException the log could not be written
     */
    public synchronized void flush() {
        if (closed) {
            return;
        }
        try {
            json.flush();
        } catch (IOException e) {
            failure = e;
        }
        if (failure != null) {
            throw new UncheckedIOException("the event log stopped", failure);
        }
    }

    /**
     * Flushes and closes the log and its stream.
     *
     * @throws UncheckedIOException the log could not be written, now or before
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            json.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new UncheckedIOException("the event log could not be written", failure);
        }
    }
}
