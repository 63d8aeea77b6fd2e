package io.jroce.rnic.runtime;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.transport.PolledTransport;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.verbs.Gid;

/**
 * Two {@link PolledTransport} ends joined in memory, with real threads and no sockets: what the
 * invoker mode's runtime needs to be tested alone (which thread reads, who takes over, who
 * waits). One end {@link #drop drops} what it sends while told to, as a peer gone away.
 */
final class MemoryPipe {
    final End a;
    final End b;

    MemoryPipe(String addressA, String addressB) {
        a = new End(Gid.parse(addressA).toBytes());
        b = new End(Gid.parse(addressB).toBytes());
        a.peer = b;
        b.peer = a;
    }

    private record Datagram(byte[] bytes, byte[] src) {
    }

    /** Busy-waits {@code nanos}: work that lasts (a slow flush here, a long task in the tests). */
    static void spin(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }

    static final class End implements PolledTransport {
        final byte[] address;
        End peer;
        volatile boolean drop;
        /** Sends wait for {@link #flush}, as a socket's send queue does, instead of arriving at once. */
        volatile boolean holdUntilFlush;
        /** Datagrams sent and held for the next flush; owner only. */
        private final java.util.List<Datagram> held = new java.util.ArrayList<>();
        /** The opcode (first byte) of every datagram this end sent, in the order they left it. */
        final java.util.List<Integer> sentOpcodes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        /** How long a flush that delivers something takes, as a slow sendmmsg(2) would. */
        volatile long flushSpinNs;
        /** When the last flush that delivered something ended (System.nanoTime()). */
        volatile long lastFlushEndNs;
        /** How many flushes delivered something. */
        final java.util.concurrent.atomic.AtomicInteger flushes = new java.util.concurrent.atomic.AtomicInteger();
        volatile Thread lastReader;
        /** How many times a thread went into {@link #await}. */
        final java.util.concurrent.atomic.AtomicInteger awaits = new java.util.concurrent.atomic.AtomicInteger();
        /** True while a thread waits in {@link #await} without watching the sockets. */
        volatile boolean sleepingUnwatched;
        private final ConcurrentLinkedQueue<Datagram> inbound = new ConcurrentLinkedQueue<>();
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition signal = lock.newCondition();
        private boolean woken;
        private RocePacketHandler handler;
        private volatile boolean closed;

        End(byte[] address) {
            this.address = address;
        }

        @Override
        public void start(RocePacketHandler handler) {
            this.handler = handler;
        }

        @Override
        public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
            if (drop || peer.closed || !Arrays.equals(dstAddress, peer.address)) {
                return true; // lost on the way, as a datagram to a host that is gone
            }
            byte[] copy = new byte[length];
            packet.getBytes(offset, copy);
            Datagram d = new Datagram(copy, srcAddress.clone());
            if (holdUntilFlush) {
                held.add(d);
                return true;
            }
            sentOpcodes.add(copy[0] & 0xFF);
            peer.inbound.add(d);
            peer.signal();
            return true;
        }

        @Override
        public void flush() {
            if (held.isEmpty()) {
                return;
            }
            flushes.incrementAndGet();
            held.forEach(d -> sentOpcodes.add(d.bytes()[0] & 0xFF));
            peer.inbound.addAll(held);
            held.clear();
            peer.signal();
            spin(flushSpinNs);
            lastFlushEndNs = System.nanoTime();
        }

        /** Datagrams waiting to arrive at this end. */
        int inboundCount() {
            return inbound.size();
        }

        @Override
        public int receive(int maxDatagrams) {
            int n = 0;
            Datagram d;
            while (n < maxDatagrams && (d = inbound.poll()) != null) {
                lastReader = Thread.currentThread();
                handler.onPacket(new UnsafeBuffer(d.bytes), 0, d.bytes.length, d.src, 4791, address.clone());
                n++;
            }
            return n;
        }

        @Override
        public void await(long timeoutNs, boolean watchSockets) {
            awaits.incrementAndGet();
            long left = timeoutNs;
            lock.lock();
            sleepingUnwatched = !watchSockets;
            try {
                while (!woken && !(watchSockets && !inbound.isEmpty()) && left > 0) {
                    left = signal.awaitNanos(left);
                }
                woken = false;
                sleepingUnwatched = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void wakeUp() {
            lock.lock();
            try {
                woken = true;
                signal.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void signal() {
            lock.lock();
            try {
                signal.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            closed = true;
        }

    }
}
