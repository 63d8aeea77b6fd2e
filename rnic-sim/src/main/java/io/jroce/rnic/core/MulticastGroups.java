package io.jroce.rnic.core;

import java.util.Arrays;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The engine's multicast table: the QPs attached to each multicast GID, looked up by a received
 * packet's destination address without allocating (the low 8 bytes of the GID pick a chain, the
 * whole GID is compared). The device replaces a group's member array on every attach and detach;
 * the receive path reads it. I/O thread only.
 */
final class MulticastGroups {
    private static final QpTransport[] NONE = new QpTransport[0];

    /** One group: its MGID, the QPs attached, and the next group whose GID has the same low bytes. */
    private static final class Group {
        final byte[] mgid;
        QpTransport[] members;
        Group next;

        Group(byte[] mgid, QpTransport[] members) {
            this.mgid = mgid;
            this.members = members;
        }
    }

    private final Long2ObjectHashMap<Group> chains = new Long2ObjectHashMap<>();

    /** The QPs attached to {@code gid}, or null when none is. */
    QpTransport[] members(byte[] gid) {
        for (Group g = chains.get(low(gid)); g != null; g = g.next) {
            if (Arrays.equals(g.mgid, gid)) {
                return g.members;
            }
        }
        return null;
    }

    /** Makes {@code members} the QPs attached to {@code mgid}; none removes the group. */
    void set(byte[] mgid, QpTransport[] members) {
        long key = low(mgid);
        Group head = chains.get(key);
        Group previous = null;
        for (Group g = head; g != null; previous = g, g = g.next) {
            if (Arrays.equals(g.mgid, mgid)) {
                if (members.length > 0) {
                    g.members = members;
                } else if (previous == null) {
                    if (g.next == null) {
                        chains.remove(key);
                    } else {
                        chains.put(key, g.next);
                    }
                } else {
                    previous.next = g.next;
                }
                return;
            }
        }
        if (members.length > 0) {
            Group g = new Group(mgid.clone(), members);
            g.next = head;
            chains.put(key, g);
        }
    }

    /** The empty member array, for a group whose last QP detached. */
    static QpTransport[] none() {
        return NONE;
    }

    private static long low(byte[] gid) {
        long v = 0;
        for (int i = 8; i < 16; i++) {
            v = v << 8 | (gid[i] & 0xFF);
        }
        return v;
    }
}
