package io.jroce.stack.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The direct transport's suite with UDP GRO on its sockets: one recvmsg per coalesced run, cut at
 * the segment size the kernel reports (corrupt, truncated and oversized datagrams, GSO runs and
 * the rest, as without GRO); and what GRO changes: a run arrives whole.
 */
class DirectGroUdpTransportTest extends DirectUdpTransportTest {
    @Override
    void configure(DirectUdpTransport.Builder builder) {
        builder.gro(true);
    }

    /**
     * Two GSO runs (three 1000-byte packets and a 300-byte one; then two of 500) sent one after the
     * other: the first read that finds anything returns exactly the first run, in order, and the
     * next the second. Without GRO the kernel would have cut each run into datagrams on arrival.
     */
    @Test
    void eachGsoRunIsReadWholeByOneRead() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assumeTrue(a.transport.gso(), "UDP GSO unsupported by this kernel");
        Random rnd = new Random(7);
        List<byte[]> first = List.of(packet(rnd, 1000), packet(rnd, 1000), packet(rnd, 1000), packet(rnd, 300));
        List<byte[]> second = List.of(packet(rnd, 500), packet(rnd, 500));
        for (List<byte[]> run : List.of(first, second)) {
            for (byte[] p : run) {
                assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
            }
            a.transport.flush();
        }
        assertEquals(first.size(), readSome(b));
        assertEquals(second.size(), readSome(b));
        List<byte[]> all = new ArrayList<>(first);
        all.addAll(second);
        for (byte[] p : all) {
            assertArrayEquals(p, b.collector.queue.poll().packet());
        }
    }

    /** Reads until a read returns something; returns what it returned. */
    private static int readSome(Direct d) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int n;
        while ((n = d.transport.receive(64)) == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "nothing arrived within the guard time");
        }
        return n;
    }
}
