package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AethSyndromeTest {
    @Test
    void rxeAcksWithTheNoCreditCountSyndrome() {
        assertEquals(0x1F, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT));
        assertEquals(AethKind.ACK, AethSyndrome.kind(0x1F));
        assertEquals(AethSyndrome.NO_CREDIT_COUNT, AethSyndrome.value(0x1F));
    }

    @Test
    void everyAckCreditCountRoundTrips() {
        for (int credits = 0; credits <= 0x1F; credits++) {
            int syndrome = AethSyndrome.ack(credits);
            assertEquals(credits, syndrome);
            assertEquals(AethKind.ACK, AethSyndrome.kind(syndrome));
            assertEquals(credits, AethSyndrome.value(syndrome));
            assertNull(AethSyndrome.nakCode(syndrome));
        }
    }

    @Test
    void everyRnrTimerRoundTrips() {
        for (int timer = 0; timer <= 0x1F; timer++) {
            int syndrome = AethSyndrome.rnrNak(timer);
            assertEquals(0x20 | timer, syndrome);
            assertEquals(AethKind.RNR_NAK, AethSyndrome.kind(syndrome));
            assertEquals(timer, AethSyndrome.value(syndrome));
            assertNull(AethSyndrome.nakCode(syndrome));
        }
    }

    @ParameterizedTest
    @EnumSource(NakCode.class)
    void everyNakCodeRoundTrips(NakCode code) {
        int syndrome = AethSyndrome.nak(code);

        assertEquals(0x60 | code.code(), syndrome);
        assertEquals(AethKind.NAK, AethSyndrome.kind(syndrome));
        assertEquals(code, AethSyndrome.nakCode(syndrome));
    }

    @Test
    void nakCodesHaveTheirSpecValues() {
        assertEquals(0x60, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
        assertEquals(0x61, AethSyndrome.nak(NakCode.INVALID_REQUEST));
        assertEquals(0x62, AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR));
        assertEquals(0x63, AethSyndrome.nak(NakCode.REMOTE_OPERATIONAL_ERROR));
        assertEquals(0x64, AethSyndrome.nak(NakCode.INVALID_RD_REQUEST));
    }

    @Test
    void reservedNakCodesAndTheReservedKindDecodeWithoutANakCode() {
        for (int code = 5; code <= 0x1F; code++) {
            assertEquals(AethKind.NAK, AethSyndrome.kind(0x60 | code));
            assertNull(AethSyndrome.nakCode(0x60 | code), "code " + code);
            assertNull(NakCode.fromCode(code));
        }
        for (int syndrome = 0x40; syndrome <= 0x5F; syndrome++) {
            assertEquals(AethKind.RESERVED, AethSyndrome.kind(syndrome));
            assertNull(AethSyndrome.nakCode(syndrome));
        }
        assertNull(NakCode.fromCode(-1));
    }

    @Test
    void theReservedTopBitDoesNotChangeTheKind() {
        for (int syndrome = 0; syndrome < 0x80; syndrome++) {
            assertEquals(AethSyndrome.kind(syndrome), AethSyndrome.kind(syndrome | AethSyndrome.RESERVED_MASK));
            assertEquals(AethSyndrome.value(syndrome), AethSyndrome.value(syndrome | AethSyndrome.RESERVED_MASK));
        }
    }
}
