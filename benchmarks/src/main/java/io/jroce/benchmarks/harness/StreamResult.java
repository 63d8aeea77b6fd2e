package io.jroce.benchmarks.harness;

/**
 * What the active side of {@code udp_bw} measured: messages retired (acknowledged, or written off
 * as lost) over the time from the first send to the last acknowledgement.
 *
 * @param peakMessagesPerSec the best 100 ms interval (the average when the run is shorter)
 * @param sentDatagrams      data datagrams sent, or with --read requests sent
 * @param receivedDatagrams  acknowledgements, or with --read response datagrams, received
 */
record StreamResult(long messages, double seconds, double peakMessagesPerSec, double messagesPerSec,
                    long sentDatagrams, long receivedDatagrams, long lostDatagrams, int stalls, long refusedSends) {
}
