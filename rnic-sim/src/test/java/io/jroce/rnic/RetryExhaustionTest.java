package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;

/** The judge of RETRY_EXC_ERR accepts only an exhaustion in which no answer got through. */
class RetryExhaustionTest {
    private static final byte[] A = IpAddresses.toGidBytes(ReliabilityRun.A);
    private static final byte[] B = IpAddresses.toGidBytes(ReliabilityRun.B);
    private static final long MS = 1_000_000;

    private final List<TraceEvent> trace = new ArrayList<>();

    private void request(long t, int psn, Fate fate) {
        trace.add(new TraceEvent(t, trace.size(), A, B, Opcode.RC_SEND_ONLY, psn, 100, -1, fate,
            fate == Fate.DROPPED ? -1 : t + 5_000, null));
    }

    private void response(long t, int psn, int syndrome, Fate fate) {
        trace.add(new TraceEvent(t, trace.size(), B, A, Opcode.RC_ACKNOWLEDGE, psn, 16, syndrome, fate,
            fate == Fate.DROPPED ? -1 : t + 5_000, null));
    }

    /** PSN 9 acknowledged, then 10 and 11 sent; 10 is sent again at each of 7 timeouts. */
    private void eightTransmissionsOf10(Fate fateOf10) {
        request(0, 9, Fate.DELIVERED);
        response(10_000, 9, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), Fate.DELIVERED);
        for (int i = 0; i < 8; i++) {
            request(i * 67 * MS + 20_000, 10, fateOf10);
            request(i * 67 * MS + 20_000, 11, Fate.DELIVERED);
        }
    }

    @Test
    void eightLossesOfTheStuckPsnEarnTheError() {
        eightTransmissionsOf10(Fate.DROPPED);
        assertNotNull(RetryExhaustion.earned(trace, ReliabilityRun.A, 600 * MS, 8));
    }

    @Test
    void aSequenceNakNamingTheStuckPsnIsNoAnswerToIt() {
        eightTransmissionsOf10(Fate.DROPPED);
        response(100 * MS, 10, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), Fate.DELIVERED);
        assertNotNull(RetryExhaustion.earned(trace, ReliabilityRun.A, 600 * MS, 8));
    }

    @Test
    void anAckThatGotThroughMeansTheRequesterThrewProgressAway() {
        eightTransmissionsOf10(Fate.DROPPED);
        response(200 * MS, 11, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), Fate.DELIVERED);
        assertNull(RetryExhaustion.earned(trace, ReliabilityRun.A, 600 * MS, 8));
    }

    @Test
    void fewerTransmissionsThanTheBudgetAreNotAnExhaustion() {
        eightTransmissionsOf10(Fate.DROPPED);
        assertNull(RetryExhaustion.earned(trace.subList(0, 12), ReliabilityRun.A, 600 * MS, 8));
    }

    @Test
    void aDeliveredCopyOfTheStuckPsnWhoseAnswerWasLostStillEarnsIt() {
        eightTransmissionsOf10(Fate.DELIVERED);
        response(300 * MS, 11, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), Fate.DROPPED);
        assertNotNull(RetryExhaustion.earned(trace, ReliabilityRun.A, 600 * MS, 8));
    }
}
