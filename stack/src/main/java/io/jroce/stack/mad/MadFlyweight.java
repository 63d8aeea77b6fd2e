package io.jroce.stack.mad;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A view of a fixed-size MAD structure at an offset in a buffer: it holds the buffer rather than
 * being one. Every multi-byte field is big-endian (IBTA Vol. 1 13.4.2). Bit fields are numbered as
 * IBTA and the kernel's iba.h number them, from the most significant bit of their byte: a field of
 * {@code width} bits at bit offset {@code bit} occupies mask {@code ((1 << width) - 1) << (8 - bit - width)}.
 */
public abstract class MadFlyweight {
    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /** Only the structures of this package extend it. */
    MadFlyweight() {
    }

    /** The wrapped buffer. */
    public final DirectBuffer buffer() {
        return buffer;
    }

    /** Where this structure starts in the wrapped buffer. */
    public final int offset() {
        return offset;
    }

    /** The structure's length in bytes. */
    public abstract int length();

    final void wrapBuffer(DirectBuffer buffer, int offset) {
        buffer.boundsCheck(offset, length());
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer) buffer : null;
        this.offset = offset;
    }

    final MutableDirectBuffer writable() {
        if (mutableBuffer == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " wraps a read-only buffer");
        }
        return mutableBuffer;
    }

    /** Zeroes the whole structure: reserved fields are sent as 0 and setters keep neighbouring bits. */
    final void clearAll() {
        writable().setMemory(offset, length(), (byte) 0);
    }

    final int getUint8(int field) {
        return buffer.getByte(offset + field) & 0xFF;
    }

    final void putUint8(int field, int value) {
        writable().putByte(offset + field, (byte) value);
    }

    final int getUint16(int field) {
        return buffer.getShort(offset + field, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    final void putUint16(int field, int value) {
        writable().putShort(offset + field, (short) value, ByteOrder.BIG_ENDIAN);
    }

    /** Three bytes from {@code field}: IBTA's 24-bit QPNs, EECNs and PSNs in CM messages lead their word. */
    final int getUint24(int field) {
        return getUint16(field) << 8 | getUint8(field + 2);
    }

    final void putUint24(int field, int value) {
        putUint16(field, value >>> 8);
        putUint8(field + 2, value);
    }

    final int getInt32(int field) {
        return buffer.getInt(offset + field, ByteOrder.BIG_ENDIAN);
    }

    final void putInt32(int field, int value) {
        writable().putInt(offset + field, value, ByteOrder.BIG_ENDIAN);
    }

    final long getInt64(int field) {
        return buffer.getLong(offset + field, ByteOrder.BIG_ENDIAN);
    }

    final void putInt64(int field, long value) {
        writable().putLong(offset + field, value, ByteOrder.BIG_ENDIAN);
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
        buffer.getBytes(offset + field, dst, dstOffset, length);
    }

    final void putBytes(int field, byte[] src, int srcOffset, int length) {
        writable().putBytes(offset + field, src, srcOffset, length);
    }

    final void getBytes(int field, MutableDirectBuffer dst, int dstOffset, int length) {
        buffer.getBytes(offset + field, dst, dstOffset, length);
    }

    final void putBytes(int field, DirectBuffer src, int srcOffset, int length) {
        writable().putBytes(offset + field, src, srcOffset, length);
    }
}
