package io.jroce.rnic.cq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/** The ring on its own: full, empty, wrap-around, batches, and pollers racing on its CAS. */
class CompletionRingTest {
    private static final CompletionWriter WC = CompletionWriter.get();
    private static final int QPN = 0x11;

    private static boolean push(CompletionRing ring, long wrId) {
        WorkCompletion wc = ring.claim();
        if (wc == null) {
            return false;
        }
        WC.start(wc, wrId, WcOpcode.RECV, QPN);
        WC.byteLen(wc, (int) wrId * 3);
        ring.publish();
        return true;
    }

    private static WorkCompletion[] entries(int n) {
        WorkCompletion[] wcs = new WorkCompletion[n];
        for (int i = 0; i < n; i++) {
            wcs[i] = new WorkCompletion();
        }
        return wcs;
    }

    @Test
    void aRingNeedsAnEntry() {
        assertThrows(IllegalArgumentException.class, () -> new CompletionRing(0));
    }

    @Test
    void anEmptyRingGivesNothing() {
        CompletionRing ring = new CompletionRing(4);
        WorkCompletion wc = WC.start(new WorkCompletion(), 99, WcOpcode.SEND, 1);
        assertFalse(ring.take(wc));
        assertEquals(99, wc.wrId(), "a failed take leaves the caller's entry alone");
        assertEquals(0, ring.poll(entries(4)));
        assertEquals(0, ring.size());
    }

    @Test
    void aClaimIsInvisibleUntilPublished() {
        CompletionRing ring = new CompletionRing(4);
        WorkCompletion slot = ring.claim();
        WC.start(slot, 7, WcOpcode.RECV, QPN);
        WC.status(slot, WcStatus.LOC_LEN_ERR);
        assertSame(slot, ring.claimed());
        assertFalse(ring.take(new WorkCompletion()));
        ring.publish();
        WorkCompletion wc = new WorkCompletion();
        assertTrue(ring.take(wc));
        assertEquals(7, wc.wrId());
        assertEquals(WcStatus.LOC_LEN_ERR, wc.status());
        assertEquals(QPN, wc.qpNum());
    }

    @Test
    void aFullRingRefusesAClaimUntilAnEntryIsTaken() {
        CompletionRing ring = new CompletionRing(3);
        for (int i = 0; i < 3; i++) {
            assertTrue(push(ring, i));
        }
        assertNull(ring.claim());
        assertNull(ring.claim(), "still full");
        assertEquals(3, ring.size());
        WorkCompletion wc = new WorkCompletion();
        assertTrue(ring.take(wc));
        assertEquals(0, wc.wrId());
        assertNotNull(ring.claim(), "the producer sees the freed slot");
        assertTrue(push(ring, 3));
        assertNull(ring.claim());
    }

    @Test
    void entriesComeOutInOrderAcrossManyWrapArounds() {
        CompletionRing ring = new CompletionRing(5); // not a power of two, as a CQ's size need not be
        WorkCompletion[] batch = entries(3);
        WorkCompletion one = new WorkCompletion();
        long next = 0;
        long expected = 0;
        for (int round = 0; round < 1000; round++) {
            while (push(ring, next)) {
                next++;
            }
            assertEquals(5, ring.size());
            int n = ring.poll(batch);
            assertEquals(3, n);
            for (int i = 0; i < n; i++) {
                assertEquals(expected, batch[i].wrId());
                assertEquals((int) expected * 3, batch[i].byteLen());
                expected++;
            }
            assertTrue(ring.take(one));
            assertEquals(expected++, one.wrId());
        }
        assertEquals(next - expected, ring.size());
    }

    @Test
    void aBatchTakesWhatThereIsUpToItsLength() {
        CompletionRing ring = new CompletionRing(8);
        push(ring, 1);
        push(ring, 2);
        WorkCompletion[] batch = entries(8);
        assertEquals(2, ring.poll(batch));
        assertEquals(1, batch[0].wrId());
        assertEquals(2, batch[1].wrId());
        assertEquals(0, ring.poll(batch));
        assertEquals(0, ring.poll(new WorkCompletion[0]));
    }

    /**
     * Pollers race on a full ring: every entry goes to exactly one of them, and each sees its
     * entries in ring order. Repeated so that the CASes collide.
     */
    @Test
    void pollersRacingOnTheCasTakeEveryEntryOnce() throws Exception {
        int entries = 20_000;
        int pollers = 4;
        for (int round = 0; round < 20; round++) {
            CompletionRing ring = new CompletionRing(entries);
            for (int i = 0; i < entries; i++) {
                assertTrue(push(ring, i));
            }
            CyclicBarrier start = new CyclicBarrier(pollers);
            List<List<Long>> seen = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < pollers; p++) {
                List<Long> mine = new ArrayList<>();
                seen.add(mine);
                boolean batches = p % 2 == 0;
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    WorkCompletion[] batch = entries(batches ? 7 : 1);
                    int n;
                    while ((n = batches ? ring.poll(batch) : ring.take(batch[0]) ? 1 : 0) > 0) {
                        for (int i = 0; i < n; i++) {
                            mine.add(batch[i].wrId());
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(60_000);
                assertFalse(t.isAlive());
            }
            boolean[] taken = new boolean[entries];
            int total = 0;
            for (List<Long> mine : seen) {
                long last = -1;
                for (long id : mine) {
                    assertTrue(id > last, "a poller's entries are in ring order");
                    assertFalse(taken[(int) id], "entry " + id + " taken twice");
                    taken[(int) id] = true;
                    last = id;
                    total++;
                }
            }
            assertEquals(entries, total);
            assertEquals(0, ring.size());
        }
    }
}
