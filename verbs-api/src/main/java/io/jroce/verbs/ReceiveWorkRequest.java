package io.jroce.verbs;

/** A receive queue work request (struct ibv_recv_wr); reusable, copied at post time. */
public final class ReceiveWorkRequest {
    private long wrId;
    private ScatterGatherEntry[] sgList = new ScatterGatherEntry[0];
    private int numSge;

    /** An empty request: wr_id 0 and no scatter/gather entries. */
    public ReceiveWorkRequest() {
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
     * @param wrId any value
     * @return this request
     */
    public ReceiveWorkRequest wrId(long wrId) {
        this.wrId = wrId;
        return this;
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
     * Sets the buffers the received message is scattered into, in order: every entry is used.
     *
     * @param entries the entries (kept, not copied, until the request is posted)
     * @return this request
     * @throws InvalidAttributeException {@code entries} or one of them is null
     */
    public ReceiveWorkRequest sgList(ScatterGatherEntry... entries) {
        Arguments.noNullIn(entries, entries == null ? 0 : entries.length, "sg_list");
        this.sgList = entries;
        this.numSge = entries.length;
        return this;
    }

    /**
     * Sets the buffers the received message is scattered into: the first {@code numSge} entries, so
     * that one preallocated array serves requests of different lengths.
     *
     * @param entries the entries (kept, not copied, until the request is posted)
     * @param numSge  how many of them to use
     * @return this request
     * @throws InvalidAttributeException {@code entries} or one of the used entries is null, or
     *                                   {@code numSge} is outside 0..entries.length
     */
    public ReceiveWorkRequest sgList(ScatterGatherEntry[] entries, int numSge) {
        Arguments.notNull(entries, "sg_list");
        if (numSge < 0 || numSge > entries.length) {
            throw new InvalidAttributeException("numSge " + numSge + " outside 0.." + entries.length);
        }
        Arguments.noNullIn(entries, numSge, "sg_list");
        this.sgList = entries;
        this.numSge = numSge;
        return this;
    }
}
