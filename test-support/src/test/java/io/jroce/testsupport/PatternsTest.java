package io.jroce.testsupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The patterns must be the bytes rc_ops_peer.c computes, or every interop comparison fails. */
class PatternsTest {
    @Test
    void patternIsSeedPlusSevenIPlusIShiftedByEight() {
        assertArrayEquals(new byte[] {0x30, 0x37, 0x3e, 0x45}, Patterns.pattern(0x30, 0, 4));
        // byte 256: 0x30 + 7 * 256 + 1 = 0x731, of which the low byte 0x31 remains
        assertEquals((byte) 0x31, Patterns.pattern(0x30, 256, 1)[0]);
        assertEquals((byte) (0x30 + 7 * 300 + 1), Patterns.pattern(0x30, 300, 1)[0]);
    }

    @Test
    void patternFromAnOffsetIsTheTailOfTheWholePattern() {
        byte[] whole = Patterns.pattern(0x41, 0, 1000);
        assertArrayEquals(Arrays.copyOfRange(whole, 300, 1000), Patterns.pattern(0x41, 300, 700));
    }

    @Test
    void aNegativeSeedGivesUntouchedMemory() {
        assertArrayEquals(Patterns.constant(0xEE, 17), Patterns.pattern(-1, 5, 17));
    }

    @Test
    void seededBytesRepeatForTheSameSeedOnly() {
        assertArrayEquals(Patterns.bytes(7, 64), Patterns.bytes(7, 64));
        assertEquals(false, Arrays.equals(Patterns.bytes(7, 64), Patterns.bytes(8, 64)));
    }
}
