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

    public ScatterGatherEntry() {
    }

    public ScatterGatherEntry(long address, int length, int lkey) {
        set(address, length, lkey);
    }

    /** An entry covering {@code length} bytes of {@code mr} from {@code offset}. */
    public static ScatterGatherEntry of(MemoryRegion mr, long offset, int length) {
        return new ScatterGatherEntry(mr.address() + offset, length, mr.lkey());
    }

    public ScatterGatherEntry set(long address, int length, int lkey) {
        this.address = address;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    public long address() {
        return address;
    }

    /** Length in bytes, unsigned 32-bit as in ibv_sge (a negative int means 2 GiB or more). */
    public int length() {
        return length;
    }

    public int lkey() {
        return lkey;
    }

    @Override
    public String toString() {
        return "sge{addr=0x" + Long.toHexString(address) + ", len=" + Integer.toUnsignedString(length)
            + ", lkey=0x" + Integer.toHexString(lkey) + "}";
    }
}
