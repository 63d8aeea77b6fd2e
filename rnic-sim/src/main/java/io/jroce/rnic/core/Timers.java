package io.jroce.rnic.core;

import io.jroce.stack.wire.AethSyndrome;

/** Timer values the IBTA encodes as small codes. */
final class Timers {
    private Timers() {
    }

    /** The RNR NAK delay of a timer code, in nanoseconds (code 0 = 655.36 ms, code 1 = 0.01 ms). */
    static long rnrDelayNs(int code) {
        return AethSyndrome.rnrTimerNs(code); // the table lives with the syndrome that carries the code
    }

    /** The local ACK timeout 4.096 us * 2^timeout (IBTA 9.7.6.1.3); 0 = no timeout. */
    static long ackTimeoutNs(int timeout) {
        return timeout == 0 ? 0 : 4096L << timeout;
    }
}
