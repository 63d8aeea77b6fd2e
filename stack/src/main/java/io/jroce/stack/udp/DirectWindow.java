package io.jroce.stack.udp;

import java.nio.ByteBuffer;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;

/**
 * Points an {@link UnsafeBuffer} at bytes of a Netty direct buffer without allocating. Asking a
 * pooled Netty buffer (or a slice of one) for an NIO view creates a new {@link ByteBuffer} each
 * time a buffer is handed out; here one NIO view of a whole pool chunk is made the first time a
 * chunk is seen and reused for every buffer cut from it, located by memory address. The view must
 * be NIO-backed (not a raw address) because the ICRC's {@link java.util.zip.CRC32} intrinsic reads
 * direct {@link ByteBuffer}s. Event loop only.
 */
final class DirectWindow {
    /** A duplicate of the last chunk's memory, position 0, limit = capacity. */
    private ByteBuffer chunk;
    private long chunkStart;
    private long chunkEnd;

    /**
     * Wraps {@code length} bytes of {@code buf} from {@code index} into {@code view}; false when
     * {@code buf} has no memory address (a heap or composite buffer), for the caller to copy.
     */
    boolean wrap(ByteBuf buf, int index, int length, UnsafeBuffer view) {
        if (!buf.hasMemoryAddress()) {
            return false;
        }
        long address = buf.memoryAddress() + index;
        if (chunk == null || address < chunkStart || address + length > chunkEnd) {
            if (!locate(buf, address, length)) {
                return false;
            }
        }
        view.wrap(chunk, (int) (address - chunkStart), length);
        return true;
    }

    /** Takes the NIO view of the memory {@code buf} was cut from: a pool chunk, or the buffer itself. */
    private boolean locate(ByteBuf buf, long address, int length) {
        ByteBuf root = buf;
        while (root.unwrap() != null) {
            root = root.unwrap();
        }
        if (root.nioBufferCount() != 1 || !root.hasMemoryAddress()) {
            return false;
        }
        // For a pooled buffer this is a duplicate of its whole chunk, positioned at the buffer.
        ByteBuffer nio = root.internalNioBuffer(0, root.capacity()).duplicate().clear();
        long start = BufferUtil.address(nio);
        long end = start + nio.capacity();
        if (address < start || address + length > end) {
            return false;
        }
        chunk = nio;
        chunkStart = start;
        chunkEnd = end;
        return true;
    }
}
