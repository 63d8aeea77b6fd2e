package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PsnTest {
    private static final int MAX = 0xFFFFFF;

    @Test
    void addWrapsAt24Bits() {
        assertEquals(0, Psn.add(MAX, 1));
        assertEquals(0, Psn.next(MAX));
        assertEquals(4, Psn.add(MAX - 1, 6));
        assertEquals(MAX, Psn.add(0, -1));
        assertEquals(10, Psn.add(10, Psn.MODULUS));
        assertEquals(0x123456, Psn.add(0x123450, 6));
    }

    @Test
    void compareIsWrapSafe() {
        assertTrue(Psn.compare(0, MAX) > 0, "0 follows 0xFFFFFF");
        assertTrue(Psn.compare(MAX, 0) < 0);
        assertTrue(Psn.compare(5, MAX - 5) > 0);
        assertEquals(0, Psn.compare(MAX, MAX));
        assertTrue(Psn.compare(1, 2) < 0);
        assertTrue(Psn.compare(2, 1) > 0);
    }

    @Test
    void diffIsTheShortWayRound() {
        assertEquals(1, Psn.diff(0, MAX));
        assertEquals(-1, Psn.diff(MAX, 0));
        assertEquals(11, Psn.diff(5, MAX - 5));
        assertEquals(0, Psn.diff(7, 7));
        assertEquals(Psn.HALF_WINDOW - 1, Psn.diff(Psn.HALF_WINDOW - 1, 0));
        assertEquals(-(Psn.HALF_WINDOW - 1), Psn.diff(0, Psn.HALF_WINDOW - 1));
    }

    @Test
    void theHalfWindowIsTheLimitOfOrder() {
        // Exactly 2^23 apart the order is ambiguous: both directions come out "behind".
        assertEquals(-Psn.HALF_WINDOW, Psn.diff(Psn.HALF_WINDOW, 0));
        assertEquals(-Psn.HALF_WINDOW, Psn.diff(0, Psn.HALF_WINDOW));
        assertTrue(Psn.compare(Psn.HALF_WINDOW + 1, 0) < 0, "more than half ahead counts as behind");
    }

    @Test
    void compareAgreesWithAddForEveryDistanceInTheWindow() {
        int[] bases = {0, 1, 0x7FFFFF, 0x800000, MAX - 3, MAX};
        int[] steps = {1, 2, 1000, Psn.HALF_WINDOW - 1};
        for (int base : bases) {
            for (int step : steps) {
                assertEquals(step, Psn.diff(Psn.add(base, step), base), base + " + " + step);
                assertEquals(-step, Psn.diff(Psn.add(base, -step), base), base + " - " + step);
            }
        }
    }

    @Test
    void validPsnsFitIn24Bits() {
        assertTrue(Psn.isValid(0));
        assertTrue(Psn.isValid(MAX));
        assertFalse(Psn.isValid(MAX + 1));
        assertFalse(Psn.isValid(-1));
    }
}
