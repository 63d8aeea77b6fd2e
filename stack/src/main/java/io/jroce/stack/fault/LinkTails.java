package io.jroce.stack.fault;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * When each link's latest in-order datagram arrives. A wire delivers in order whatever its delay
 * and jitter, so a datagram never arrives before one sent earlier on its link; only a datagram
 * the fault policy holds back leaves that order, and it is overtaken rather than overtaking.
 * Times are on the caller's clock. One thread only.
 */
public final class LinkTails {
    private final Map<ByteBuffer, Long> tails = new HashMap<>();

    /**
     * The arrival time of an in-order datagram due at {@code dueNs}; it becomes the link's tail.
     *
     * @param src the sender's address
     * @param dst the receiver's address
     * @param dueNs when it would arrive alone
     * @return when it arrives
     */
    public long inOrder(byte[] src, byte[] dst, long dueNs) {
        ByteBuffer link = key(src, dst);
        long at = peek(link, dueNs);
        tails.put(link, at);
        return at;
    }

    /**
     * The arrival time of a datagram held back {@code holdNs} beyond its in-order time; the tail stays.
     *
     * @param src the sender's address
     * @param dst the receiver's address
     * @param dueNs when it would arrive alone
     * @param holdNs how long it is held back
     * @return when it arrives
     */
    public long heldBack(byte[] src, byte[] dst, long dueNs, long holdNs) {
        return peek(key(src, dst), dueNs) + holdNs;
    }

    private long peek(ByteBuffer link, long dueNs) {
        Long tail = tails.get(link);
        return tail == null ? dueNs : Math.max(dueNs, tail);
    }

    private static ByteBuffer key(byte[] src, byte[] dst) {
        byte[] k = new byte[src.length + dst.length];
        System.arraycopy(src, 0, k, 0, src.length);
        System.arraycopy(dst, 0, k, src.length, dst.length);
        return ByteBuffer.wrap(k);
    }
}
