package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * The RDMA CM's header at the start of a REQ's (and SIDR_REQ's) private data, which carries the IP
 * addresses and port of the connect (the kernel's drivers/infiniband/core/cma.c {@code struct
 * cma_hdr}, written by cma_format_hdr; IBTA Vol. 1 Annex A11 defines the IP-addressing CM service).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  CMA version  |IPVer|  Rsv4   |          Source Port          |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Source IP Address (16 bytes)                  |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              Destination IP Address (16 bytes)                | 20
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * IPVer is the high nibble of byte 1 (4 or 6). The source port is the active side's. An IPv4
 * address fills the last 4 bytes of its 16, after 12 zero bytes (not the ::ffff: mapping the GIDs
 * use). The consumer's own private data follows the 36 bytes.
 */
public final class CmaHeaderFlyweight extends MadFlyweight {
    public static final int CMA_VERSION_OFFSET = 0;
    public static final int IP_VERSION_OFFSET = 1;
    public static final int PORT_OFFSET = 2;
    public static final int SOURCE_ADDRESS_OFFSET = 4;
    public static final int DESTINATION_ADDRESS_OFFSET = 20;
    public static final int ADDRESS_LENGTH = 16;
    /** Where an IPv4 address sits in its 16 bytes. */
    public static final int IPV4_IN_ADDRESS = 12;
    public static final int LENGTH = 36;

    /** CMA_VERSION: the only version; the passive side refuses others. */
    public static final int CMA_VERSION = 0x00;

    public CmaHeaderFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    /** Zeroes the 36 bytes. */
    public CmaHeaderFlyweight clear() {
        clearAll();
        return this;
    }

    public int cmaVersion() {
        return getUint8(CMA_VERSION_OFFSET);
    }

    public CmaHeaderFlyweight cmaVersion(int version) {
        putUint8(CMA_VERSION_OFFSET, version);
        return this;
    }

    /** 4 or 6, from the high nibble of byte 1. */
    public int ipVersion() {
        return getBits(IP_VERSION_OFFSET, 0, 4);
    }

    public CmaHeaderFlyweight ipVersion(int version) {
        putBits(IP_VERSION_OFFSET, 0, 4, version);
        return this;
    }

    /** The active side's port (for TCP port space, its source port). */
    public int port() {
        return getUint16(PORT_OFFSET);
    }

    public CmaHeaderFlyweight port(int port) {
        putUint16(PORT_OFFSET, port);
        return this;
    }

    /** Copies the 16 source address bytes into {@code dst}. */
    public void getSourceAddress(byte[] dst, int dstOffset) {
        getBytes(SOURCE_ADDRESS_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
    }

    public CmaHeaderFlyweight sourceAddress(byte[] src, int srcOffset) {
        putBytes(SOURCE_ADDRESS_OFFSET, src, srcOffset, ADDRESS_LENGTH);
        return this;
    }

    public void getDestinationAddress(byte[] dst, int dstOffset) {
        getBytes(DESTINATION_ADDRESS_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
    }

    public CmaHeaderFlyweight destinationAddress(byte[] src, int srcOffset) {
        putBytes(DESTINATION_ADDRESS_OFFSET, src, srcOffset, ADDRESS_LENGTH);
        return this;
    }

    /** The source IPv4 address as an int; meaningful when {@link #ipVersion()} is 4. */
    public int sourceIpv4() {
        return getInt32(SOURCE_ADDRESS_OFFSET + IPV4_IN_ADDRESS);
    }

    /** Writes an IPv4 source address: 12 zero bytes, then the address. */
    public CmaHeaderFlyweight sourceIpv4(int address) {
        writable().setMemory(offset() + SOURCE_ADDRESS_OFFSET, IPV4_IN_ADDRESS, (byte) 0);
        putInt32(SOURCE_ADDRESS_OFFSET + IPV4_IN_ADDRESS, address);
        return this;
    }

    public int destinationIpv4() {
        return getInt32(DESTINATION_ADDRESS_OFFSET + IPV4_IN_ADDRESS);
    }

    public CmaHeaderFlyweight destinationIpv4(int address) {
        writable().setMemory(offset() + DESTINATION_ADDRESS_OFFSET, IPV4_IN_ADDRESS, (byte) 0);
        putInt32(DESTINATION_ADDRESS_OFFSET + IPV4_IN_ADDRESS, address);
        return this;
    }
}
