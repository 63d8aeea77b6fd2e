package io.jroce.tools.lesson;

import io.jroce.verbs.Mtu;

/**
 * How a lesson connects its two RC QPs.
 *
 * @param mtu         the path MTU
 * @param timeout     the local ACK timeout exponent: 4.096 us * 2^timeout
 * @param retryCount  retries after an ACK timeout or a sequence-error NAK (retry_cnt)
 * @param rnrRetry    retries after an RNR NAK (rnr_retry; 7 = without end)
 * @param minRnrTimer the RNR timer code B's responder sends in an RNR NAK
 * @param psnA        the first PSN A sends
 * @param psnB        the first PSN B sends
 */
record Setup(Mtu mtu, int timeout, int retryCount, int rnrRetry, int minRnrTimer, int psnA, int psnB) {
    /** Path MTU 1024, timeout 14 (67 ms), 7 retries, RNR timer 12 (0.64 ms), PSNs 0x100 and 0x200. */
    static Setup standard() {
        return new Setup(Mtu.MTU_1024, 14, 7, 7, 12, 0x100, 0x200);
    }

    Setup mtu(Mtu value) {
        return new Setup(value, timeout, retryCount, rnrRetry, minRnrTimer, psnA, psnB);
    }

    Setup timeout(int value) {
        return new Setup(mtu, value, retryCount, rnrRetry, minRnrTimer, psnA, psnB);
    }

    Setup retryCount(int value) {
        return new Setup(mtu, timeout, value, rnrRetry, minRnrTimer, psnA, psnB);
    }

    Setup minRnrTimer(int value) {
        return new Setup(mtu, timeout, retryCount, rnrRetry, value, psnA, psnB);
    }

    Setup psnA(int value) {
        return new Setup(mtu, timeout, retryCount, rnrRetry, minRnrTimer, value, psnB);
    }
}
