package io.jroce.tools.rping;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What rping's client puts in its start buffer before ping {@code n}: "rdma-ping-n: " then
 * letters from 'A' to 'z' and around again, starting one letter later each ping, and a NUL in the
 * last byte: a C string of size - 1 characters.
 */
final class PingPattern {
    private static final byte FIRST = 'A';
    private static final byte LAST = 'z';

    private PingPattern() {
    }

    /** Fills {@code buf[0, size)} with ping {@code ping}'s data. */
    static void fill(ByteBuffer buf, int size, int ping) {
        byte[] header = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int headerLength = Math.min(header.length, size - 1); // snprintf(buf, size, ...) stops at size - 1
        for (int i = 0; i < headerLength; i++) {
            buf.put(i, header[i]);
        }
        int c = startLetter(ping);
        for (int i = header.length; i < size; i++) {
            buf.put(i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buf.put(size - 1, (byte) 0);
    }

    /** The letter ping {@code ping}'s run of letters starts with: 'A' for ping 0, one later each ping. */
    static int startLetter(int ping) {
        return FIRST + Math.floorMod(ping, LAST - FIRST + 1);
    }

    /** The C string at the start of {@code buf}: the bytes up to the first NUL, at most {@code limit}. */
    static String cString(ByteBuffer buf, int limit) {
        return new String(bytes(buf, strlen(buf, limit)), StandardCharsets.ISO_8859_1);
    }

    /** strlen, bounded by {@code limit}. */
    static int strlen(ByteBuffer buf, int limit) {
        int n = 0;
        while (n < limit && buf.get(n) != 0) {
            n++;
        }
        return n;
    }

    private static byte[] bytes(ByteBuffer buf, int length) {
        byte[] b = new byte[length];
        buf.get(0, b);
        return b;
    }
}
