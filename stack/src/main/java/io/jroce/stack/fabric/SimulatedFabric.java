package io.jroce.stack.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.FaultAction;
import io.jroce.stack.fault.FaultListener;
import io.jroce.stack.fault.FaultPolicy;
import io.jroce.stack.fault.LinkTails;
import io.jroce.stack.fault.OutgoingPacket;
import io.jroce.stack.fault.PacketTrace;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.fault.Verdict;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.stats.Counters;

/**
 * An in-memory network on a virtual clock. Everything runs on the caller's thread: tasks posted
 * with {@link #execute}, datagram deliveries in time order, and tickers (RNIC timers) as the clock
 * advances. Given the same inputs and seed it does the same thing every time.
 *
 * <p>Each sent datagram passes the {@link FabricFault} hook, then the seeded {@link FaultPolicy}
 * ({@link #faults()}: per-link loss, duplication, reordering, delay, jitter, corruption and
 * scripted rules), and its fate goes into the {@link #trace()}. With {@link Builder#pcap} the
 * fabric also keeps a wire capture of what it delivers, stamped with its virtual clock.
 *
 * <pre>{@code
 * SimulatedFabric fabric = SimulatedFabric.builder().seed(seed).build();
 * fabric.faults().defaults(LinkConditions.ideal().loss(0.1).reorder(0.05, 20_000));
 * fabric.faults().add(FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2));
 * }</pre>
 */
public final class SimulatedFabric {
    /** The cause of a drop by the {@link FabricFault} hook, in the trace and to a {@link FaultListener}. */
    private static final String FAULT_HOOK = "fault hook";
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final PriorityQueue<FabricDatagram> inFlight = new PriorityQueue<>(
        (a, b) -> a.deliverAtNs != b.deliverAtNs ? Long.compare(a.deliverAtNs, b.deliverAtNs) : Long.compare(a.sequence, b.sequence));
    private final Map<String, FabricEndpoint> endpoints = new HashMap<>();
    /** Multicast group address and port to the endpoints that joined it, in the order they joined. */
    private final Map<String, List<FabricEndpoint>> groups = new HashMap<>();
    private final List<Runnable> tickers = new ArrayList<>();
    private final LinkTails linkTails = new LinkTails();
    private final long latencyNs;
    private final long tickNs;
    private final FaultPolicy faults;
    private final PacketTrace trace;
    private final OutgoingPacket outgoing = new OutgoingPacket();
    private final Verdict verdict = new Verdict();
    /** The wire capture; null when off, so that a delivery costs one null check. */
    private final FabricCapture capture;
    private FabricFault fault = FabricFault.NONE;
    private long nowNs;
    private long sequence;
    private Thread owner;
    /** The thread that built the fabric: the one expected to run it, until one does. */
    private final Thread creator = Thread.currentThread();
    /** How deep the owner is in {@link #runUntil}: a blocking wait must not run the fabric within itself. */
    private int running;

    /**
     * A fabric with seed 0 and a trace of {@link Builder#DEFAULT_TRACE_CAPACITY} events.
     *
     * @param latencyNs one-way delay of every datagram
     * @param tickNs    how far the clock jumps when nothing is due, between ticker calls
     */
    public SimulatedFabric(long latencyNs, long tickNs) {
        this(new Builder().latencyNs(latencyNs).tickNs(tickNs));
    }

    /**
     * A fabric with the {@link Builder}'s defaults.
     */
    public SimulatedFabric() {
        this(new Builder());
    }

    private SimulatedFabric(Builder b) {
        this.latencyNs = b.latencyNs;
        this.tickNs = b.tickNs;
        this.faults = new FaultPolicy(b.seed);
        this.trace = new PacketTrace(b.traceCapacity);
        this.capture = b.pcap == null ? null : new FabricCapture(openPcap(b.pcap, this::nowNs));
    }

    private static PcapWriter openPcap(Path file, LongSupplier clockNs) {
        try {
            return PcapWriter.create(file, clockNs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the fabric's capture " + file, e);
        }
    }

    /**
     * Starts describing a fabric.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a fabric; every one has a default. */
    public static final class Builder {
        /** The trace's capacity unless {@link #traceCapacity} says otherwise. */
        public static final int DEFAULT_TRACE_CAPACITY = 4096;
        private long seed;
        private long latencyNs = 1_000;
        private long tickNs = 100_000;
        private int traceCapacity = DEFAULT_TRACE_CAPACITY;
        private Path pcap;

        private Builder() {
        }

        /**
         * Seeds the one random source of every fault the fabric injects; default 0.
         *
         * @param seed the seed
         * @return this builder
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * Base one-way delay of every datagram; default 1 us. Links may add to it.
         *
         * @param ns the delay in nanoseconds
         * @return this builder
         */
        public Builder latencyNs(long ns) {
            this.latencyNs = ns;
            return this;
        }

        /**
         * How far the clock jumps when nothing is due, between ticker calls; default 100 us.
         *
         * @param ns the jump in nanoseconds
         * @return this builder
         */
        public Builder tickNs(long ns) {
            if (ns < 1) {
                throw new IllegalArgumentException("tick must be at least 1 ns, got " + ns);
            }
            this.tickNs = ns;
            return this;
        }

        /**
         * How many of the latest packet events {@link #trace()} keeps; default 4096.
         *
         * @param events the number of events
         * @return this builder
         */
        public Builder traceCapacity(int events) {
            this.traceCapacity = events;
            return this;
        }

        /**
         * Captures the wire to {@code file} (classic pcap, Ethernet, nanosecond timestamps): every
         * datagram as and when the fabric delivers it, as a capture at the receivers' side of the
         * network would hold it. A dropped packet is absent; a corrupted one is there as it arrived,
         * its ICRC failing; a held-back one is stamped when it arrives, after those that overtook
         * it; a duplicated one is there twice. Timestamps are the virtual clock, 0 being the Unix
         * epoch. The file holds every delivery whenever {@link SimulatedFabric#runUntil} returns;
         * {@link SimulatedFabric#closeCapture()} closes it. Default: no capture.
         *
         * @param file the capture file, created or truncated by {@link #build()}
         * @return this builder
         */
        public Builder pcap(Path file) {
            this.pcap = file;
            return this;
        }

        /**
         * Makes the fabric.
         *
         * @return the fabric, its clock at 0
         * @throws UncheckedIOException the {@link #pcap} file cannot be written
         */
        public SimulatedFabric build() {
            return new SimulatedFabric(this);
        }
    }

    /**
     * Attaches an endpoint at {@code ipLiteral}:{@code port} (a device's transport).
     *
     * @param ipLiteral the endpoint's IP address literal
     * @param port its UDP port
     * @param counters where the endpoint counts what it drops
     * @return the endpoint
     */
    public FabricEndpoint attach(String ipLiteral, int port, Counters counters) {
        return attach(ipLiteral, port, counters, FaultListener.NONE);
    }

    /**
     * Attaches an endpoint at {@code ipLiteral}:{@code port} whose sent packets' faults
     * {@code faults} hears (its device's event log).
     *
     * @param ipLiteral the endpoint's IP address literal
     * @param port its UDP port
     * @param counters where the endpoint counts what it drops
     * @param faults hears each fault the fabric injects into what the endpoint sends
     * @return the endpoint
     */
    public FabricEndpoint attach(String ipLiteral, int port, Counters counters, FaultListener faults) {
        byte[] address = toGidBytes(ipLiteral);
        FabricEndpoint e = new FabricEndpoint(this, address, port, counters, faults);
        endpoints.put(key(address, port), e);
        return e;
    }

    /** {@code e} receives what is sent to {@code group}:{@code port} from now on; joining twice is joining once. */
    void join(byte[] group, int port, FabricEndpoint e) {
        List<FabricEndpoint> members = groups.computeIfAbsent(key(group, port), k -> new ArrayList<>());
        if (!members.contains(e)) {
            members.add(e);
        }
    }

    /** {@code e} no longer receives what is sent to {@code group}:{@code port}. */
    void leave(byte[] group, int port, FabricEndpoint e) {
        String k = key(group, port);
        List<FabricEndpoint> members = groups.get(k);
        if (members != null && members.remove(e) && members.isEmpty()) {
            groups.remove(k);
        }
    }

    /** Forgets {@code e} in every group (its device closed). */
    void leaveAll(FabricEndpoint e) {
        groups.values().removeIf(members -> members.remove(e) && members.isEmpty());
    }

    /**
     * Installs a hook that sees (and may change or drop) each datagram before the {@link #faults()}.
     *
     * @param fault the hook, {@link FabricFault#NONE} for none
     */
    public void fault(FabricFault fault) {
        this.fault = fault;
    }

    /**
     * The seed the fabric's faults are drawn from: print it when a test fails.
     *
     * @return the seed
     */
    public long seed() {
        return faults.seed();
    }

    /**
     * Link conditions and scripted rules; change them at any time between runs.
     *
     * @return the fabric's fault policy
     */
    public FaultPolicy faults() {
        return faults;
    }

    /**
     * What happened to the latest datagrams; print it with the seed when a test fails.
     *
     * @return the trace
     */
    public PacketTrace trace() {
        return trace;
    }

    /**
     * The fabric's virtual clock.
     *
     * @return the virtual time in nanoseconds, 0 at creation
     */
    public long nowNs() {
        return nowNs;
    }

    /**
     * Flushes and closes the wire capture ({@link Builder#pcap}); deliveries after it are not
     * captured. Nothing else of the fabric needs closing. Idempotent; does nothing without a capture.
     *
     * @throws IOException the capture could not be written (it stopped at the first failure)
     */
    public void closeCapture() throws IOException {
        if (capture != null) {
            capture.close();
        }
    }

    /**
     * Runs {@code task} on the fabric's thread at its next step.
     *
     * @param task what to run
     */
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /**
     * Whether the caller is the thread running the fabric (the first to call {@link #runUntil}).
     *
     * @return true on the fabric's thread, or before any thread ran it
     */
    public boolean inFabricThread() {
        return owner == null || owner == Thread.currentThread();
    }

    /**
     * Whether the caller drives the fabric's clock: the thread that runs it, or until one has, the
     * thread that built it. A blocking wait of that thread must run the fabric; another thread's
     * waits in real time for what the driving thread produces.
     *
     * @return true when a blocking wait of the caller must run the fabric
     */
    public boolean drivenByCurrentThread() {
        return (owner != null ? owner : creator) == Thread.currentThread();
    }

    /**
     * Called every time the clock advances (a device's timer tick).
     *
     * @param ticker what to call
     */
    public void addTicker(Runnable ticker) {
        tickers.add(ticker);
    }

    /**
     * Takes a datagram (ICRC included) from an endpoint and schedules what the network does with it;
     * {@code listener} hears the faults, before any corruption.
     */
    void transmit(byte[] src, int srcPort, byte[] dst, int dstPort, byte[] packet, long frame, FaultListener listener) {
        long id = sequence++;
        FabricDatagram d = new FabricDatagram(id, nowNs + latencyNs, src, srcPort, dst, dstPort, packet, frame);
        int length = Math.max(0, packet.length - IcrcCalculator.ICRC_LENGTH);
        if (!fault.deliver(d)) {
            recordDrop(d, length, FAULT_HOOK);
            listener.faultInjected(FaultAction.DROP, FAULT_HOOK, outgoing.wrap(nowNs, src, dst, d.packet, 0, length),
                frame);
            return;
        }
        Verdict v = faults.decide(outgoing.wrap(nowNs, src, dst, d.packet, 0, length), verdict);
        v.report(listener, outgoing, frame);
        if (v.dropped()) {
            recordDrop(d, length, v.cause());
            return;
        }
        // The trace shows the headers as sent, the copy is of the good packet: both before corruption.
        TraceHeaders sent = new TraceHeaders(d, outgoing, length);
        FabricDatagram copy = v.duplicate()
            ? new FabricDatagram(sequence++, 0, src, srcPort, dst, dstPort, packet.clone(), frame) : null;
        if (v.corruptBit() >= 0) {
            int bit = v.corruptBit();
            packet[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
        long due = nowNs + latencyNs + v.delayNs();
        long at = v.holdNs() > 0 ? linkTails.heldBack(src, dst, due, v.holdNs()) : linkTails.inOrder(src, dst, due);
        schedule(d, at, sent, v.fate(), v.cause());
        if (copy != null) {
            long copyAt = linkTails.inOrder(src, dst, nowNs + latencyNs + v.copyDelayNs());
            schedule(copy, copyAt, sent, Fate.DUPLICATED, v.cause());
        }
    }

    /** Opcode, PSN and AETH syndrome of a datagram as it was sent; -1 for what it lacks. */
    private record TraceHeaders(long id, int opcode, int psn, int syndrome, int length) {
        TraceHeaders(FabricDatagram d, OutgoingPacket p, int length) {
            this(d.sequence, p.opcode(), p.psn(), p.aethSyndrome(), length);
        }
    }

    private void schedule(FabricDatagram d, long at, TraceHeaders sent, Fate fate, String cause) {
        d.deliverAtNs = at; // set once, before it joins the queue ordered by it
        inFlight.add(d);
        trace.record(new TraceEvent(nowNs, sent.id, d.src, d.dst, sent.opcode, sent.psn, sent.length, sent.syndrome, fate,
            at, cause));
    }

    private void recordDrop(FabricDatagram d, int length, String cause) {
        TraceHeaders h = new TraceHeaders(d, outgoing.wrap(nowNs, d.src, d.dst, d.packet, 0, length), length);
        trace.record(new TraceEvent(nowNs, h.id, d.src, d.dst, h.opcode, h.psn, length, h.syndrome, Fate.DROPPED, -1,
            cause));
    }

    /**
     * Runs tasks, deliveries and timers until {@code done} holds or the clock passes
     * {@code maxNs} from now.
     *
     * @return true when {@code done} became true
     * @param done the condition, checked between steps
     * @param maxNs the most virtual time to run, in nanoseconds
     */
    public boolean runUntil(BooleanSupplier done, long maxNs) {
        owner = Thread.currentThread();
        running++;
        try {
            return run(done, maxNs);
        } finally {
            running--;
            if (capture != null) {
                capture.flush(); // a test reads the capture between runs
            }
        }
    }

    /** {@return whether the caller is inside {@link #runUntil} (a task, delivery or ticker it runs)} */
    public boolean running() {
        return running > 0 && owner == Thread.currentThread();
    }

    private boolean run(BooleanSupplier done, long maxNs) {
        long limit = nowNs + maxNs;
        while (!done.getAsBoolean()) {
            if (!tasks.isEmpty()) {
                tasks.poll().run();
                continue;
            }
            FabricDatagram next = inFlight.peek();
            if (next != null && next.deliverAtNs <= nowNs) {
                inFlight.poll();
                deliver(next);
                continue;
            }
            if (nowNs >= limit) {
                return false;
            }
            long target = nowNs + tickNs;
            if (next != null && next.deliverAtNs < target) {
                target = next.deliverAtNs;
            }
            nowNs = Math.min(target, limit);
            for (Runnable t : tickers) {
                t.run();
            }
        }
        return true;
    }

    /**
     * Runs until nothing is left to do before {@code maxNs} passes.
     *
     * @param maxNs the virtual time to run, in nanoseconds
     */
    public void runFor(long maxNs) {
        runUntil(() -> false, maxNs);
    }

    /**
     * To the endpoint of the destination address, or to every endpoint that joined the destination
     * multicast group, the sender included if it joined (as Linux loops multicast back by default,
     * IP_MULTICAST_LOOP); they share the datagram, which receivers only read. The capture has it
     * once, as one wire would carry it.
     */
    private void deliver(FabricDatagram d) {
        if (capture != null) {
            capture.delivered(d); // on the wire whether or not an endpoint takes it
        }
        String k = key(d.dst, d.dstPort);
        FabricEndpoint e = endpoints.get(k);
        if (e != null) {
            e.receive(d);
            return;
        }
        List<FabricEndpoint> members = groups.get(k);
        if (members != null) {
            for (FabricEndpoint m : members.toArray(new FabricEndpoint[0])) {
                m.receive(d);
            }
        }
    }

    private static String key(byte[] address, int port) {
        StringBuilder sb = new StringBuilder();
        for (byte b : address) {
            sb.append(b & 0xff).append('.');
        }
        return sb.append(port).toString();
    }

    static byte[] toGidBytes(String ipLiteral) {
        return IpAddresses.toGidBytes(ipLiteral);
    }
}
