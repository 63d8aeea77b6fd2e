package io.jroce.stack.mad;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import io.jroce.stack.wire.HeaderFlyweight;

/**
 * A view of a fixed-size MAD structure at an offset in a buffer: it holds the buffer rather than
 * being one. Every multi-byte field is big-endian (IBTA Vol. 1 13.4.2). Bit fields are numbered as
 * IBTA and the kernel's iba.h number them, from the most significant bit of their byte: a field of
 * {@code width} bits at bit offset {@code bit} occupies mask {@code ((1 << width) - 1) << (8 - bit - width)}.
 */
public abstract class MadFlyweight extends HeaderFlyweight {
    /** Only the structures of this package extend it. */
    MadFlyweight() {
    }

    /** The structure's length in bytes. */
    public abstract int length();

    @Override
    public final int headerLength() {
        return length();
    }

    final void wrapBuffer(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, length());
    }

    /** Zeroes the whole structure: reserved fields are sent as 0 and setters keep neighbouring bits. */
    final void clearAll() {
        clearHeader();
    }

    /** Three bytes from {@code field}: IBTA's 24-bit QPNs, EECNs and PSNs in CM messages lead their word. */
    final int getUint24(int field) {
        return getUint16(field) << 8 | getUint8(field + 2);
    }

    final void putUint24(int field, int value) {
        putUint16(field, value >>> 8);
        putUint8(field + 2, value);
    }

    /** The {@code width}-bit field at bit {@code bit} (0 = most significant) of the byte at {@code field}. */
    final int getBits(int field, int bit, int width) {
        int shift = 8 - bit - width;
        return (getUint8(field) >>> shift) & ((1 << width) - 1);
    }

    /** Writes the low {@code width} bits of {@code value} there, keeping the byte's other bits. */
    final void putBits(int field, int bit, int width, int value) {
        int shift = 8 - bit - width;
        int mask = ((1 << width) - 1) << shift;
        putUint8(field, (getUint8(field) & ~mask) | ((value << shift) & mask));
    }

    final void getBytes(int field, byte[] dst, int dstOffset, int length) {
        buffer().getBytes(offset() + field, dst, dstOffset, length);
    }

    final void putBytes(int field, byte[] src, int srcOffset, int length) {
        writable().putBytes(offset() + field, src, srcOffset, length);
    }

    final void getBytes(int field, MutableDirectBuffer dst, int dstOffset, int length) {
        buffer().getBytes(offset() + field, dst, dstOffset, length);
    }

    final void putBytes(int field, DirectBuffer src, int srcOffset, int length) {
        writable().putBytes(offset() + field, src, srcOffset, length);
    }
}
