package io.jroce.tools.cmcommon;

import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * One {@code struct cmatest_node} of the UD twins (udaddy, mckey): an ID and the resources it made
 * (a PD, a CQ for both queues, one message buffer of the message size plus the 40-byte GRH area that
 * every receive lands in and every send is taken from), and the peer's or group's address handle,
 * QPN and Q_Key.
 */
public final class UdNode {
    /** The node's number, 0 up. */
    public final int index;
    /** The node's ID; a server's node takes the ID of the connect request it answers. */
    public RdmaCmId id;
    /** Whether the node has its peer or group. */
    public boolean connected;
    /** The node's protection domain. */
    public ProtectionDomain pd;
    /** The CQ of both its queues. */
    public CompletionQueue cq;
    /** Its message buffer. */
    public MemoryRegion mr;
    /** The address handle of its peer or group. */
    public AddressHandle ah;
    /** The peer's or group's QPN. */
    public int remoteQpn;
    /** The peer's or group's Q_Key. */
    public int remoteQkey;

    /**
     * A node with no resources yet.
     *
     * @param index the node's number
     * @param id its ID, or null before it has one
     */
    public UdNode(int index, RdmaCmId id) {
        this.index = index;
        this.id = id;
    }

    /**
     * destroy_node's device resources: the address handle, the QP, the CQ, the buffer, the PD (the
     * run destroys the ID after them). Each is closed even when an earlier one fails, so that the
     * device can close; a second call closes none of them again.
     */
    public void destroy() {
        Teardown.closeQuietly(ah);
        if (id != null && id.qp() != null) {
            Teardown.closeQuietly(id.qp());
        }
        Teardown.closeQuietly(cq);
        Teardown.closeQuietly(mr);
        Teardown.closeQuietly(pd);
        ah = null;
        cq = null;
        mr = null;
        pd = null;
    }
}
