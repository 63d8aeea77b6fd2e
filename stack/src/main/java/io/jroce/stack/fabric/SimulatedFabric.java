package io.jroce.stack.fabric;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

import io.jroce.stack.stats.Counters;

/**
 * An in-memory network on a virtual clock. Everything runs on the caller's thread: tasks posted
 * with {@link #execute}, datagram deliveries in time order, and tickers (RNIC timers) as the clock
 * advances. Given the same inputs it does the same thing every time.
 */
public final class SimulatedFabric {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final PriorityQueue<FabricDatagram> inFlight = new PriorityQueue<>(
        (a, b) -> a.deliverAtNs != b.deliverAtNs ? Long.compare(a.deliverAtNs, b.deliverAtNs) : Long.compare(a.sequence, b.sequence));
    private final Map<String, FabricEndpoint> endpoints = new HashMap<>();
    private final List<Runnable> tickers = new ArrayList<>();
    private final long latencyNs;
    private final long tickNs;
    private FabricFault fault = FabricFault.NONE;
    private long nowNs;
    private long sequence;
    private Thread owner;

    /**
     * @param latencyNs one-way delay of every datagram
     * @param tickNs    how far the clock jumps when nothing is due, between ticker calls
     */
    public SimulatedFabric(long latencyNs, long tickNs) {
        this.latencyNs = latencyNs;
        this.tickNs = tickNs;
    }

    public SimulatedFabric() {
        this(1_000, 100_000);
    }

    /** Attaches an endpoint at {@code ipLiteral}:{@code port} (a device's transport). */
    public FabricEndpoint attach(String ipLiteral, int port, Counters counters) {
        byte[] address = toGidBytes(ipLiteral);
        FabricEndpoint e = new FabricEndpoint(this, address, port, counters);
        endpoints.put(key(address, port), e);
        return e;
    }

    public void fault(FabricFault fault) {
        this.fault = fault;
    }

    public long nowNs() {
        return nowNs;
    }

    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** Whether the caller is the thread running the fabric (the first to call {@link #runUntil}). */
    public boolean inFabricThread() {
        return owner == null || owner == Thread.currentThread();
    }

    /** Called every time the clock advances (a device's timer tick). */
    public void addTicker(Runnable ticker) {
        tickers.add(ticker);
    }

    void transmit(byte[] src, int srcPort, byte[] dst, int dstPort, byte[] packet) {
        FabricDatagram d = new FabricDatagram(sequence++, nowNs + latencyNs, src, srcPort, dst, dstPort, packet);
        if (fault.deliver(d)) {
            inFlight.add(d);
        }
    }

    /**
     * Runs tasks, deliveries and timers until {@code done} holds or the clock passes
     * {@code maxNs} from now.
     *
     * @return true when {@code done} became true
     */
    public boolean runUntil(BooleanSupplier done, long maxNs) {
        owner = Thread.currentThread();
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

    /** Runs until nothing is left to do before {@code maxNs} passes. */
    public void runFor(long maxNs) {
        runUntil(() -> false, maxNs);
    }

    private void deliver(FabricDatagram d) {
        FabricEndpoint e = endpoints.get(key(d.dst, d.dstPort));
        if (e != null) {
            e.receive(d);
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
        try {
            byte[] a = InetAddress.getByName(ipLiteral).getAddress();
            if (a.length == 16) {
                return a;
            }
            byte[] g = new byte[16];
            g[10] = (byte) 0xff;
            g[11] = (byte) 0xff;
            System.arraycopy(a, 0, g, 12, 4);
            return g;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + ipLiteral, e);
        }
    }
}
