package io.jroce.verbs;

/**
 * One scatter/gather element (struct ibv_sge): {@code length} bytes at virtual address
 * {@code address} inside the memory region named by {@code lkey}. Mutable so that work requests
 * can be reused without allocation.
 */
public final class ScatterGatherEntry {
    private long address;
    private int length;
    private int lkey;

    /** An empty entry (address 0, length 0, lkey 0), to be {@link #set} later. */
    public ScatterGatherEntry() {
    }

    /**
     * An entry of {@code length} bytes at {@code address}.
     *
     * @param address the virtual address of the first byte
     * @param length  the length in bytes, unsigned
     * @param lkey    the local key of the memory region that holds the bytes
     */
    public ScatterGatherEntry(long address, int length, int lkey) {
        set(address, length, lkey);
    }

    /**
     * An entry covering part of a memory region.
     *
     * @param mr     the region
     * @param offset the offset of the first byte in the region
     * @param length the length in bytes
     * @return a new entry with the region's address plus {@code offset} and its lkey
     */
    public static ScatterGatherEntry of(MemoryRegion mr, long offset, int length) {
        return new ScatterGatherEntry(mr.address() + offset, length, mr.lkey());
    }

    /**
     * Changes the entry, so that it can be reused without allocation.
     *
     * @param address the virtual address of the first byte
     * @param length  the length in bytes, unsigned
     * @param lkey    the local key of the memory region that holds the bytes
     * @return this entry
     */
    public ScatterGatherEntry set(long address, int length, int lkey) {
        this.address = address;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /**
     * The virtual address of the first byte.
     *
     * @return the address
     */
    public long address() {
        return address;
    }

    /**
     * The length in bytes.
     *
     * @return the length, unsigned 32-bit as in ibv_sge (a negative int means 2 GiB or more)
     */
    public int length() {
        return length;
    }

    /**
     * The local key of the memory region that holds the bytes.
     *
     * @return the lkey
     */
    public int lkey() {
        return lkey;
    }

    @Override
    public String toString() {
        return "sge{addr=0x" + Long.toHexString(address) + ", len=" + Integer.toUnsignedString(length)
            + ", lkey=0x" + Integer.toHexString(lkey) + "}";
    }
}
