package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WireLayoutTest {
    @Test
    void write64KiBAtMtu4096IsSixteenPacketsWithTheRethOnTheFirst() {
        int[] lengths = WireLayout.packetLengths(WireLayout.Operation.RDMA_WRITE, 65536, 4096);
        assertEquals(16, lengths.length);
        assertEquals(12 + 16 + 4096, lengths[0]);
        for (int i = 1; i < 16; i++) {
            assertEquals(12 + 4096, lengths[i]);
        }
    }

    @Test
    void smallMessagesAreOnePacketPaddedToFourBytes() {
        assertArrayEquals(new int[] {12 + 16 + 64}, WireLayout.packetLengths(WireLayout.Operation.RDMA_WRITE, 64, 4096));
        assertArrayEquals(new int[] {12 + 64}, WireLayout.packetLengths(WireLayout.Operation.SEND, 64, 1024));
        assertArrayEquals(new int[] {12 + 4}, WireLayout.packetLengths(WireLayout.Operation.SEND, 2, 1024));
        assertArrayEquals(new int[] {12}, WireLayout.packetLengths(WireLayout.Operation.SEND, 0, 1024));
    }

    @Test
    void readResponsesCarryAnAethOnTheFirstAndLastOnly() {
        int[] lengths = WireLayout.packetLengths(WireLayout.Operation.RDMA_READ_RESPONSE, 3 * 1024 + 17, 1024);
        assertArrayEquals(new int[] {12 + 4 + 1024, 12 + 1024, 12 + 1024, 12 + 4 + 20}, lengths);
        assertEquals(12 + 4, WireLayout.ACK_LENGTH);
        assertEquals(12 + 16, WireLayout.READ_REQUEST_LENGTH);
    }
}
