package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RoceV2Test {
    @Test
    void padBringsThePayloadToAMultipleOfFour() {
        int[] expectedPad = {0, 3, 2, 1, 0, 3, 2, 1, 0};
        for (int length = 0; length < expectedPad.length; length++) {
            assertEquals(expectedPad[length], RoceV2.padCount(length), "length " + length);
            assertEquals(0, RoceV2.paddedLength(length) % 4);
        }
        assertEquals(0, RoceV2.padCount(4096));
        assertEquals(1, RoceV2.padCount(4095));
    }

    @Test
    void payloadLengthIsWhatTheHeadersPadAndIcrcLeave() {
        // rxe-rping.pcap frame 7: READ response only, UDP length 92, BTH + AETH, 64 bytes.
        assertEquals(64, RoceV2.payloadLength(92, 16, 0));
        // A 3-byte SEND only: 8 + 12 + 3 + 1 pad + 4 ICRC = 28.
        assertEquals(3, RoceV2.payloadLength(28, 12, 1));
        assertEquals(-1, RoceV2.payloadLength(23, 12, 0));
    }
}
