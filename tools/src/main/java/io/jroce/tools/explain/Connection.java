package io.jroce.tools.explain;

import io.jroce.stack.wire.TransportType;
import java.util.BitSet;
import java.util.List;

/**
 * The packets between two QPs: an RC or UC connection, or the datagrams one UD QP sent another
 * (and back). Side A sent the first packet.
 *
 * @param number    from 1, in the order of the first packet
 * @param transport RC, UC or UD (CNPs travel within the connection they slow down)
 * @param a         the first sender
 * @param b         the other end
 * @param packets   in capture order
 * @param fromB     the ordinals of the packets B sent
 */
record Connection(int number, TransportType transport, Side a, Side b, List<Packet> packets, BitSet fromB) {
    /** 0 when {@code p} went from A to B, 1 when from B to A. */
    int from(Packet p) {
        return fromB.get(p.ordinal()) ? 1 : 0;
    }

    Side side(int index) {
        return index == 0 ? a : b;
    }
}
