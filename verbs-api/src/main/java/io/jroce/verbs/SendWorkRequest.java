package io.jroce.verbs;

/**
 * A send queue work request (struct ibv_send_wr). The QP copies what it needs at post time, so one
 * instance can be reused for every post.
 */
public final class SendWorkRequest {
    private long wrId;
    private WrOpcode opcode = WrOpcode.SEND;
    private int sendFlags;
    private ScatterGatherEntry[] sgList = new ScatterGatherEntry[0];
    private int numSge;
    private int immData;
    private long remoteAddress;
    private int rkey;
    private long compareAdd;
    private long swap;
    private AddressHandle addressHandle;
    private int remoteQpn;
    private int remoteQkey;
    private int invalidateRkey;
    private MemoryWindow bindWindow;
    private int bindRkey;
    private MemoryRegion bindRegion;
    private long bindAddress;
    private long bindLength;
    private int bindAccess;

    public long wrId() {
        return wrId;
    }

    public SendWorkRequest wrId(long wrId) {
        this.wrId = wrId;
        return this;
    }

    public WrOpcode opcode() {
        return opcode;
    }

    public SendWorkRequest opcode(WrOpcode opcode) {
        this.opcode = opcode;
        return this;
    }

    /** Bitwise OR of {@link SendFlags}. */
    public int sendFlags() {
        return sendFlags;
    }

    public SendWorkRequest sendFlags(int sendFlags) {
        this.sendFlags = sendFlags;
        return this;
    }

    public boolean isSignaled() {
        return (sendFlags & SendFlags.SIGNALED) != 0;
    }

    public ScatterGatherEntry sge(int i) {
        if (i < 0 || i >= numSge) {
            throw new IndexOutOfBoundsException("sge " + i + " of " + numSge);
        }
        return sgList[i];
    }

    public int numSge() {
        return numSge;
    }

    /** Uses the given entries (not copied: keep them unchanged until post returns). */
    public SendWorkRequest sgList(ScatterGatherEntry... entries) {
        Arguments.noNullIn(entries, entries == null ? 0 : entries.length, "sg_list");
        this.sgList = entries;
        this.numSge = entries.length;
        return this;
    }

    /** Uses the first {@code numSge} of {@code entries}, for reuse without allocation. */
    public SendWorkRequest sgList(ScatterGatherEntry[] entries, int numSge) {
        Arguments.notNull(entries, "sg_list");
        if (numSge < 0 || numSge > entries.length) {
            throw new InvalidAttributeException("numSge " + numSge + " outside 0.." + entries.length);
        }
        Arguments.noNullIn(entries, numSge, "sg_list");
        this.sgList = entries;
        this.numSge = numSge;
        return this;
    }

    /** Immediate data, as the application wrote it (sent in network byte order). */
    public int immData() {
        return immData;
    }

    public SendWorkRequest immData(int immData) {
        this.immData = immData;
        return this;
    }

    public long remoteAddress() {
        return remoteAddress;
    }

    public SendWorkRequest remoteAddress(long remoteAddress) {
        this.remoteAddress = remoteAddress;
        return this;
    }

    public int rkey() {
        return rkey;
    }

    public SendWorkRequest rkey(int rkey) {
        this.rkey = rkey;
        return this;
    }

    /** Compare value of CMP_AND_SWP, or the addend of FETCH_AND_ADD. */
    public long compareAdd() {
        return compareAdd;
    }

    public SendWorkRequest compareAdd(long compareAdd) {
        this.compareAdd = compareAdd;
        return this;
    }

    /** Swap value of CMP_AND_SWP. */
    public long swap() {
        return swap;
    }

    public SendWorkRequest swap(long swap) {
        this.swap = swap;
        return this;
    }

    /** UD: where the message goes (struct ibv_send_wr.wr.ud). */
    public SendWorkRequest ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        this.addressHandle = addressHandle;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    public AddressHandle addressHandle() {
        return addressHandle;
    }

    public int remoteQpn() {
        return remoteQpn;
    }

    /** The Q_Key to send; one with the high bit set means "use the QP's own Q_Key" (IBTA 10.2.4). */
    public int remoteQkey() {
        return remoteQkey;
    }

    /** The rkey a SEND_WITH_INV invalidates at the responder, or a LOCAL_INV here (ibv_send_wr.invalidate_rkey). */
    public int invalidateRkey() {
        return invalidateRkey;
    }

    public SendWorkRequest invalidateRkey(int rkey) {
        this.invalidateRkey = rkey;
        return this;
    }

    /**
     * BIND_MW of a type 2 window (ibv_send_wr.bind_mw): {@code newRkey} must differ from the
     * window's current rkey only in its low 8 bits (see {@link MemoryWindow#nextRkey()}).
     */
    public SendWorkRequest bindMw(MemoryWindow window, int newRkey, MemoryRegion region, long address, long length,
                                  int access) {
        this.bindWindow = window;
        this.bindRkey = newRkey;
        this.bindRegion = region;
        this.bindAddress = address;
        this.bindLength = length;
        this.bindAccess = access;
        return this;
    }

    public MemoryWindow bindWindow() {
        return bindWindow;
    }

    public int bindRkey() {
        return bindRkey;
    }

    public MemoryRegion bindRegion() {
        return bindRegion;
    }

    public long bindAddress() {
        return bindAddress;
    }

    public long bindLength() {
        return bindLength;
    }

    public int bindAccess() {
        return bindAccess;
    }

    /** Sum of the scatter/gather lengths (unsigned). */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < numSge; i++) {
            total += Integer.toUnsignedLong(sgList[i].length());
        }
        return total;
    }
}
