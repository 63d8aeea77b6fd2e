package io.jroce.verbs.cm;

import io.jroce.verbs.Arguments;

/**
 * {@code struct rdma_conn_param} (rdma_cma.h): what rdma_connect and rdma_accept put in the REQ or
 * REP, and what an event reports of the peer's. Defaults: no private data, 1 READ/atomic each way,
 * 7 retries, 7 RNR retries (forever).
 */
public final class ConnParam {
    private byte[] privateData = new byte[0];
    private int responderResources = 1;
    private int initiatorDepth = 1;
    private int retryCount = 7;
    private int rnrRetryCount = 7;

    /** The defaults: no private data, 1 READ/atomic each way, 7 retries, 7 RNR retries. */
    public ConnParam() {
    }

    /**
     * The consumer's private data: at most 56 bytes in a REQ, 196 in a REP, 148 in a REJ.
     *
     * @return a copy of the bytes, empty by default
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * Sets the consumer's private data: at most 56 bytes in a REQ, 196 in a REP, 148 in a REJ.
     *
     * @param data the bytes (copied)
     * @return these parameters
     * @throws io.jroce.verbs.InvalidAttributeException {@code data} is null
     */
    public ConnParam privateData(byte[] data) {
        this.privateData = Arguments.notNull(data, "private data").clone();
        return this;
    }

    /**
     * How many RDMA READs and atomics this side serves at once (the QP's max_dest_rd_atomic).
     *
     * @return the count (1 by default)
     */
    public int responderResources() {
        return responderResources;
    }

    /**
     * Sets how many RDMA READs and atomics this side serves at once (the QP's max_dest_rd_atomic).
     *
     * @param n the count (1 by default)
     * @return these parameters
     */
    public ConnParam responderResources(int n) {
        this.responderResources = n;
        return this;
    }

    /**
     * How many RDMA READs and atomics this side has outstanding at once (the QP's max_rd_atomic).
     *
     * @return the count (1 by default)
     */
    public int initiatorDepth() {
        return initiatorDepth;
    }

    /**
     * Sets how many RDMA READs and atomics this side has outstanding at once (the QP's max_rd_atomic).
     *
     * @param n the count (1 by default)
     * @return these parameters
     */
    public ConnParam initiatorDepth(int n) {
        this.initiatorDepth = n;
        return this;
    }

    /**
     * The transport retries, 0..7 (the CMA clamps larger values to 7).
     *
     * @return the count (7 by default)
     */
    public int retryCount() {
        return retryCount;
    }

    /**
     * Sets the transport retries, 0..7 (the CMA clamps larger values to 7).
     *
     * @param n the count (7 by default)
     * @return these parameters
     */
    public ConnParam retryCount(int n) {
        this.retryCount = n;
        return this;
    }

    /**
     * The RNR retries, 0..7; 7 retries forever.
     *
     * @return the count (7 by default)
     */
    public int rnrRetryCount() {
        return rnrRetryCount;
    }

    /**
     * Sets the RNR retries, 0..7; 7 retries forever.
     *
     * @param n the count (7 by default)
     * @return these parameters
     */
    public ConnParam rnrRetryCount(int n) {
        this.rnrRetryCount = n;
        return this;
    }

    @Override
    public String toString() {
        return "ConnParam{private_data_len=" + privateData.length + ", responder_resources=" + responderResources
            + ", initiator_depth=" + initiatorDepth + ", retry_count=" + retryCount + ", rnr_retry_count="
            + rnrRetryCount + "}";
    }
}
