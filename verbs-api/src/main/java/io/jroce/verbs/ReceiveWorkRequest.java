package io.jroce.verbs;

/** A receive queue work request (struct ibv_recv_wr); reusable, copied at post time. */
public final class ReceiveWorkRequest {
    private long wrId;
    private ScatterGatherEntry[] sgList = new ScatterGatherEntry[0];
    private int numSge;

    public long wrId() {
        return wrId;
    }

    public ReceiveWorkRequest wrId(long wrId) {
        this.wrId = wrId;
        return this;
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

    public ReceiveWorkRequest sgList(ScatterGatherEntry... entries) {
        Arguments.noNullIn(entries, entries == null ? 0 : entries.length, "sg_list");
        this.sgList = entries;
        this.numSge = entries.length;
        return this;
    }

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
