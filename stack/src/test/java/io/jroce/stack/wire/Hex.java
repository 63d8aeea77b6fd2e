package io.jroce.stack.wire;

import java.util.HexFormat;

import org.agrona.DirectBuffer;

/** Hex strings as tests write packets: spaces allowed between bytes. */
final class Hex {
    private Hex() {
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String of(DirectBuffer buffer, int offset, int length) {
        byte[] b = new byte[length];
        buffer.getBytes(offset, b);
        return HexFormat.of().formatHex(b);
    }
}
