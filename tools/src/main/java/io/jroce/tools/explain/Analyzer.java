package io.jroce.tools.explain;

/**
 * One kind of analysis of a connection, fed its packets in capture order. An implementation keeps
 * its own state and writes what it finds into the {@link Report}.
 */
interface Analyzer {
    /**
     * @param p    the next packet
     * @param from 0 when A sent it, 1 when B did
     */
    void packet(Packet p, int from, Report report);

    /** After the last packet: what is still open (a message without its ACK, a READ without its response). */
    default void end(Report report) {
    }
}
