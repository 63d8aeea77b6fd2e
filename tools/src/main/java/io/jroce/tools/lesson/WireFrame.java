package io.jroce.tools.lesson;

/**
 * One datagram a device put on the fabric, as the fabric took it: before any fault acted on it.
 *
 * @param number  the frame number in the lesson's capture, from 1
 * @param timeNs  virtual time it was sent
 * @param fromA   whether device A sent it
 * @param src16   sender address, 16 bytes
 * @param dst16   receiver address, 16 bytes
 * @param srcPort UDP source port
 * @param dstPort UDP destination port
 * @param roce    the packet from its BTH, ICRC included
 * @param lost    what dropped it on the way, or null when it was delivered
 */
record WireFrame(int number, long timeNs, boolean fromA, byte[] src16, byte[] dst16, int srcPort, int dstPort,
                 byte[] roce, String lost) {
    WireFrame lost(String cause) {
        return new WireFrame(number, timeNs, fromA, src16, dst16, srcPort, dstPort, roce, cause);
    }
}
