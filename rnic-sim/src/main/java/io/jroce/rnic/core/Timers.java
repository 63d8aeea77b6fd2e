package io.jroce.rnic.core;

/** Timer values the IBTA encodes as small codes. */
final class Timers {
    /** RNR NAK timer in units of 10 us by code 0..31 (IBTA Vol. 1 Table 45, section 9.7.5.2.8). */
    private static final long[] RNR_TIMER_10US = {
        65536L, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
        256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152};

    private Timers() {
    }

    /** The RNR NAK delay of a timer code, in nanoseconds (code 0 = 655.36 ms, code 1 = 0.01 ms). */
    static long rnrDelayNs(int code) {
        return RNR_TIMER_10US[code & 31] * 10_000L;
    }

    /** The local ACK timeout 4.096 us * 2^timeout (IBTA 9.7.6.1.3); 0 = no timeout. */
    static long ackTimeoutNs(int timeout) {
        return timeout == 0 ? 0 : 4096L << timeout;
    }
}
