package io.jroce.stack.wire;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A view of one transport header at an offset in a buffer. It holds the buffer rather than being
 * one, so a packet is read through several small views and nothing is copied. Every multi-byte
 * field is big-endian (IBTA Vol. 1 9.2: network byte order).
 */
public abstract class HeaderFlyweight {
    /** Mask of a 24-bit field (QPN, PSN, MSN). */
    public static final int UINT24_MASK = 0x00FF_FFFF;

    /** The buffer wrapped, kept as a read-only type so received packets can be wrapped as they are. */
    private DirectBuffer buffer;
    /** The same buffer when it can be written, else null: setters fail on a read-only buffer. */
    private MutableDirectBuffer mutableBuffer;
    /** Where the header starts in {@link #buffer}. */
    private int offset;

    /** The transport headers of this package extend it, and the MAD structures of {@code io.jroce.stack.mad}. */
    protected HeaderFlyweight() {
    }

    /** The wrapped buffer. */
    public final DirectBuffer buffer() {
        return buffer;
    }

    /** Where this header starts in the wrapped buffer. */
    public final int offset() {
        return offset;
    }

    /** The header's length in bytes. */
    public abstract int headerLength();

    /** Points this view at {@code length} bytes from {@code offset}; the buffer must hold them all. */
    protected final void wrapBuffer(DirectBuffer buffer, int offset, int length) {
        buffer.boundsCheck(offset, length);
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer) buffer : null;
        this.offset = offset;
    }

    /** The buffer for a setter: a header wrapped over a read-only buffer cannot be written. */
    protected final MutableDirectBuffer writable() {
        if (mutableBuffer == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " wraps a read-only buffer");
        }
        return mutableBuffer;
    }

    /** Zeroes the whole header, so that reserved bits go out as 0 (IBTA: reserved fields are sent as 0). */
    protected final void clearHeader() {
        writable().setMemory(offset, headerLength(), (byte) 0);
    }

    // Field accessors relative to the header start. Every one names the byte order: the wire is big-endian.

    protected final int getUint8(int field) {
        return buffer.getByte(offset + field) & 0xFF;
    }

    protected final void putUint8(int field, int value) {
        writable().putByte(offset + field, (byte) value);
    }

    protected final int getUint16(int field) {
        return buffer.getShort(offset + field, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    protected final void putUint16(int field, int value) {
        writable().putShort(offset + field, (short) value, ByteOrder.BIG_ENDIAN);
    }

    protected final int getInt32(int field) {
        return buffer.getInt(offset + field, ByteOrder.BIG_ENDIAN);
    }

    protected final void putInt32(int field, int value) {
        writable().putInt(offset + field, value, ByteOrder.BIG_ENDIAN);
    }

    protected final long getInt64(int field) {
        return buffer.getLong(offset + field, ByteOrder.BIG_ENDIAN);
    }

    protected final void putInt64(int field, long value) {
        writable().putLong(offset + field, value, ByteOrder.BIG_ENDIAN);
    }

    /** The low 24 bits of the 32-bit word at {@code word}: QPNs, PSNs and MSNs share a word with a flag byte. */
    final int getUint24(int word) {
        return getInt32(word) & UINT24_MASK;
    }

    /** Writes the low 24 bits of the word at {@code word}, keeping its first byte. */
    final void putUint24(int word, int value) {
        putInt32(word, (getInt32(word) & ~UINT24_MASK) | (value & UINT24_MASK));
    }

    /** Sets or clears {@code mask} in the byte at {@code field}, keeping its other bits. */
    final void putFlag(int field, int mask, boolean set) {
        int b = getUint8(field);
        putUint8(field, set ? b | mask : b & ~mask);
    }
}
