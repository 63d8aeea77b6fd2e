package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** QP numbers skip live and reserved numbers across the 24-bit wrap (issue 11). */
class QpnAllocatorTest {
    @Test
    void theWrapSkipsLiveAndReservedNumbers() {
        QpnAllocator qpns = new QpnAllocator();
        int first = qpns.allocate();
        int second = qpns.allocate();
        assertEquals(DeviceLimits.FIRST_QPN, first);
        assertEquals(DeviceLimits.FIRST_QPN + 1, second);
        qpns.nextCandidate(QpnAllocator.LAST_QPN - 1);
        assertEquals(0xFFFFFD, qpns.allocate());
        assertEquals(0xFFFFFE, qpns.allocate());
        int wrapped = qpns.allocate();
        assertEquals(DeviceLimits.FIRST_QPN + 2, wrapped, "0xFFFFFF, 0, 1 and the two live QPNs are skipped");
        qpns.release(first);
        qpns.nextCandidate(QpnAllocator.LAST_QPN);
        qpns.release(0xFFFFFE);
        assertEquals(0xFFFFFE, qpns.allocate(), "a released number is free again");
        assertEquals(first, qpns.allocate(), "and so is the released first one, after the wrap");
        assertEquals(DeviceLimits.FIRST_QPN + 3, qpns.allocate(), "second and wrapped are still live");
    }

    @Test
    void aLiveNumberIsNeverHandedOutTwiceAcrossManyWraps() {
        QpnAllocator qpns = new QpnAllocator();
        Set<Integer> live = new HashSet<>();
        for (int i = 0; i < 64; i++) {
            live.add(qpns.allocate());
        }
        for (int round = 0; round < 3; round++) {
            qpns.nextCandidate(QpnAllocator.LAST_QPN - 10);
            for (int i = 0; i < 200; i++) {
                int q = qpns.allocate();
                assertFalse(live.contains(q), "live QPN 0x" + Integer.toHexString(q) + " handed out again");
                assertTrue(q >= DeviceLimits.FIRST_QPN && q <= 0xFFFFFE, "reserved QPN 0x" + Integer.toHexString(q));
                qpns.release(q);
            }
        }
    }

    @Test
    void reservedNumbersCannotBeChosenAsTheNextCandidate() {
        QpnAllocator qpns = new QpnAllocator();
        for (int reserved : new int[] {0, 1, 0xFFFFFF}) {
            assertThrows(IllegalArgumentException.class, () -> qpns.nextCandidate(reserved));
        }
    }
}
