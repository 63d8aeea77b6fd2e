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

    /** An empty SEND: wr_id 0, no flags and no scatter/gather entries. */
    public SendWorkRequest() {
    }

    /**
     * The caller's identifier, returned in the request's completion.
     *
     * @return the wr_id
     */
    public long wrId() {
        return wrId;
    }

    /**
     * Sets the caller's identifier, returned in the request's completion.
     *
     * @param wrId the wr_id
     * @return this request
     */
    public SendWorkRequest wrId(long wrId) {
        this.wrId = wrId;
        return this;
    }

    /**
     * The operation.
     *
     * @return the opcode (SEND by default)
     */
    public WrOpcode opcode() {
        return opcode;
    }

    /**
     * Sets the operation.
     *
     * @param opcode the opcode (SEND by default)
     * @return this request
     */
    public SendWorkRequest opcode(WrOpcode opcode) {
        this.opcode = opcode;
        return this;
    }

    /**
     * The request's flags.
     *
     * @return a bitwise OR of {@link SendFlags}
     */
    public int sendFlags() {
        return sendFlags;
    }

    /**
     * Sets the request's flags.
     *
     * @param sendFlags a bitwise OR of {@link SendFlags}
     * @return this request
     */
    public SendWorkRequest sendFlags(int sendFlags) {
        this.sendFlags = sendFlags;
        return this;
    }

    /**
     * Whether the request asks for a completion when it succeeds.
     *
     * @return true when {@link SendFlags#SIGNALED} is set
     */
    public boolean isSignaled() {
        return (sendFlags & SendFlags.SIGNALED) != 0;
    }

    /**
     * One of the request's scatter/gather entries.
     *
     * @param i the index, below {@link #numSge()}
     * @return the entry (not a copy)
     * @throws IndexOutOfBoundsException {@code i} is outside 0..numSge-1
     */
    public ScatterGatherEntry sge(int i) {
        if (i < 0 || i >= numSge) {
            throw new IndexOutOfBoundsException("sge " + i + " of " + numSge);
        }
        return sgList[i];
    }

    /**
     * How many scatter/gather entries the request uses.
     *
     * @return num_sge
     */
    public int numSge() {
        return numSge;
    }

    /**
     * Sets the buffers the message is gathered from, in order: every entry is used.
     *
     * @param entries the entries (not copied: keep them unchanged until the post returns)
     * @return this request
     * @throws InvalidAttributeException {@code entries} or one of them is null
     */
    public SendWorkRequest sgList(ScatterGatherEntry... entries) {
        Arguments.noNullIn(entries, entries == null ? 0 : entries.length, "sg_list");
        this.sgList = entries;
        this.numSge = entries.length;
        return this;
    }

    /**
     * Sets the buffers the message is gathered from: the first {@code numSge} entries, so that one
     * preallocated array serves requests of different lengths.
     *
     * @param entries the entries (not copied: keep them unchanged until the post returns)
     * @param numSge  how many of them to use
     * @return this request
     * @throws InvalidAttributeException {@code entries} or one of the used entries is null, or
     *                                   {@code numSge} is outside 0..entries.length
     */
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

    /**
     * The immediate data, as the application wrote it (sent in network byte order).
     *
     * @return the immediate data of a *_WITH_IMM opcode
     */
    public int immData() {
        return immData;
    }

    /**
     * Sets the immediate data, as the application wrote it (sent in network byte order).
     *
     * @param immData the immediate data of a *_WITH_IMM opcode
     * @return this request
     */
    public SendWorkRequest immData(int immData) {
        this.immData = immData;
        return this;
    }

    /**
     * The peer's virtual address an RDMA or atomic operation targets.
     *
     * @return the remote address
     */
    public long remoteAddress() {
        return remoteAddress;
    }

    /**
     * Sets the peer's virtual address an RDMA or atomic operation targets.
     *
     * @param remoteAddress the remote address
     * @return this request
     */
    public SendWorkRequest remoteAddress(long remoteAddress) {
        this.remoteAddress = remoteAddress;
        return this;
    }

    /**
     * The peer's key of the memory an RDMA or atomic operation targets.
     *
     * @return the rkey
     */
    public int rkey() {
        return rkey;
    }

    /**
     * Sets the peer's key of the memory an RDMA or atomic operation targets.
     *
     * @param rkey the rkey
     * @return this request
     */
    public SendWorkRequest rkey(int rkey) {
        this.rkey = rkey;
        return this;
    }

    /**
     * The compare value of CMP_AND_SWP, or the addend of FETCH_AND_ADD.
     *
     * @return the value
     */
    public long compareAdd() {
        return compareAdd;
    }

    /**
     * Sets the compare value of CMP_AND_SWP, or the addend of FETCH_AND_ADD.
     *
     * @param compareAdd the value
     * @return this request
     */
    public SendWorkRequest compareAdd(long compareAdd) {
        this.compareAdd = compareAdd;
        return this;
    }

    /**
     * The swap value of CMP_AND_SWP.
     *
     * @return the value
     */
    public long swap() {
        return swap;
    }

    /**
     * Sets the swap value of CMP_AND_SWP.
     *
     * @param swap the value
     * @return this request
     */
    public SendWorkRequest swap(long swap) {
        this.swap = swap;
        return this;
    }

    /**
     * UD: where the message goes (struct ibv_send_wr.wr.ud).
     *
     * @param addressHandle the destination's address handle
     * @param remoteQpn     the destination QP number
     * @param remoteQkey    the Q_Key to send (see {@link #remoteQkey()})
     * @return this request
     */
    public SendWorkRequest ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        this.addressHandle = addressHandle;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    /**
     * UD: the address handle of the destination, set with {@link #ud}.
     *
     * @return the handle, or null
     */
    public AddressHandle addressHandle() {
        return addressHandle;
    }

    /**
     * UD: the destination QP number, set with {@link #ud}.
     *
     * @return the 24-bit QP number
     */
    public int remoteQpn() {
        return remoteQpn;
    }

    /**
     * UD: the Q_Key to send; one with the high bit set means "use the QP's own Q_Key" (IBTA 10.2.4).
     *
     * @return the Q_Key
     */
    public int remoteQkey() {
        return remoteQkey;
    }

    /**
     * The rkey a SEND_WITH_INV invalidates at the responder, or a LOCAL_INV here (ibv_send_wr.invalidate_rkey).
     *
     * @return the rkey
     */
    public int invalidateRkey() {
        return invalidateRkey;
    }

    /**
     * Sets the rkey a SEND_WITH_INV invalidates at the responder, or a LOCAL_INV here (ibv_send_wr.invalidate_rkey).
     *
     * @param rkey the rkey
     * @return this request
     */
    public SendWorkRequest invalidateRkey(int rkey) {
        this.invalidateRkey = rkey;
        return this;
    }

    /**
     * BIND_MW of a type 2 window (ibv_send_wr.bind_mw): {@code newRkey} must differ from the
     * window's current rkey only in its low 8 bits (see {@link MemoryWindow#nextRkey()}).
     *
     * @param window  the type 2 window, of the posting QP's protection domain
     * @param newRkey the window's rkey once bound
     * @param region  the region the window exposes part of (registered with MW_BIND)
     * @param address the first byte of the window, inside the region
     * @param length  the window's length in bytes
     * @param access  the remote {@link AccessFlags} the window grants
     * @return this request
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

    /**
     * BIND_MW: the type 2 window to bind, set with {@link #bindMw}.
     *
     * @return the window, or null
     */
    public MemoryWindow bindWindow() {
        return bindWindow;
    }

    /**
     * BIND_MW: the window's new rkey.
     *
     * @return the rkey
     */
    public int bindRkey() {
        return bindRkey;
    }

    /**
     * BIND_MW: the region the window exposes part of.
     *
     * @return the region, or null
     */
    public MemoryRegion bindRegion() {
        return bindRegion;
    }

    /**
     * BIND_MW: the first byte of the window.
     *
     * @return the virtual address
     */
    public long bindAddress() {
        return bindAddress;
    }

    /**
     * BIND_MW: the window's length in bytes.
     *
     * @return the length
     */
    public long bindLength() {
        return bindLength;
    }

    /**
     * BIND_MW: the remote access the window grants.
     *
     * @return a mask of {@link AccessFlags}
     */
    public int bindAccess() {
        return bindAccess;
    }

    /**
     * The message's length.
     *
     * @return the sum of the used scatter/gather entries' lengths, each unsigned
     */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < numSge; i++) {
            total += Integer.toUnsignedLong(sgList[i].length());
        }
        return total;
    }
}
