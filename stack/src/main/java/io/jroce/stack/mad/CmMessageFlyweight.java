package io.jroce.stack.mad;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every CM message shares: it is a whole 256-byte MAD, wrapped at the MAD's first byte, so
 * the offset constants of the subclasses count from the start of the MAD header (IBTA's message
 * tables count from the start of the MAD data: add {@link MadHeaderFlyweight#LENGTH}, as the
 * kernel's CM_FIELD macros in include/rdma/ibta_vol1_c12.h do). Read the header through a
 * {@link MadHeaderFlyweight} on the same offset. Every message ends with private data that runs to
 * the end of the MAD; the kernel zero-fills what the consumer did not supply.
 */
public abstract class CmMessageFlyweight extends MadFlyweight {
    /** The start of the CM message proper, after the MAD header. */
    public static final int DATA_OFFSET = MadHeaderFlyweight.LENGTH;
    public static final int LENGTH = MadHeaderFlyweight.MAD_LENGTH;

    CmMessageFlyweight() {
    }

    @Override
    public final int length() {
        return LENGTH;
    }

    /** Zeroes the whole MAD, header included: build a message on a cleared buffer. */
    final void clearMad() {
        clearAll();
    }

    /** The attribute ID of this message type in the MAD header. */
    public abstract int attributeId();

    /** Where the private data starts, from the start of the MAD. */
    public abstract int privateDataOffset();

    /** Bytes of private data: from {@link #privateDataOffset()} to the end of the MAD. */
    public final int privateDataLength() {
        return LENGTH - privateDataOffset();
    }

    /** Copies the first {@code length} bytes of private data into {@code dst}. */
    public final void getPrivateData(byte[] dst, int dstOffset, int length) {
        checkPrivateDataLength(length);
        getBytes(privateDataOffset(), dst, dstOffset, length);
    }

    public final void getPrivateData(MutableDirectBuffer dst, int dstOffset, int length) {
        checkPrivateDataLength(length);
        getBytes(privateDataOffset(), dst, dstOffset, length);
    }

    /** Writes {@code length} bytes of private data and zeroes the rest of it, as the kernel pads. */
    public final void putPrivateData(byte[] src, int srcOffset, int length) {
        checkPrivateDataLength(length);
        putBytes(privateDataOffset(), src, srcOffset, length);
        zeroAfter(length);
    }

    public final void putPrivateData(DirectBuffer src, int srcOffset, int length) {
        checkPrivateDataLength(length);
        putBytes(privateDataOffset(), src, srcOffset, length);
        zeroAfter(length);
    }

    private void zeroAfter(int length) {
        writable().setMemory(offset() + privateDataOffset() + length, privateDataLength() - length, (byte) 0);
    }

    private void checkPrivateDataLength(int length) {
        if (length < 0 || length > privateDataLength()) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " private data holds "
                + privateDataLength() + " bytes, not " + length);
        }
    }
}
