package io.jroce.tools.pingpong;

import io.jroce.verbs.Gid;

/**
 * A GID as {@code inet_ntop(AF_INET6, ...)} of glibc prints it, which is how ibv_rc_pingpong shows
 * GIDs: the longest run of two or more zero groups (the first of equal runs) becomes {@code ::},
 * and an IPv4-mapped or IPv4-compatible address ends in dotted decimal
 * ({@code ::ffff:127.0.0.1}). Java's own formatting differs in both.
 */
public final class GidText {
    private GidText() {
    }

    /**
     * The GID as ibv_rc_pingpong prints it.
     *
     * @param gid the GID
     * @return its text
     */
    public static String format(Gid gid) {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) {
            words[i] = (gid.byteAt(2 * i) & 0xFF) << 8 | gid.byteAt(2 * i + 1) & 0xFF;
        }
        int bestBase = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (words[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && words[i] == 0) {
                i++;
            }
            if (i - start > bestLen) {
                bestBase = start;
                bestLen = i - start;
            }
        }
        if (bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0) {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && words[5] == 0xFFFF))) {
                sb.append(gid.byteAt(12) & 0xFF).append('.').append(gid.byteAt(13) & 0xFF).append('.')
                    .append(gid.byteAt(14) & 0xFF).append('.').append(gid.byteAt(15) & 0xFF);
                return sb.toString();
            }
            sb.append(Integer.toHexString(words[i]));
        }
        if (bestBase >= 0 && bestBase + bestLen == 8) {
            sb.append(':');
        }
        return sb.toString();
    }
}
