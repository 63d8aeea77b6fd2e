package io.jroce.tools.udaddy;

import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * One of udaddy's {@code struct cmatest_node}: a connection's ID and the resources it made for it (a
 * PD, a CQ for both queues, one message buffer of the message size plus the 40-byte GRH area that
 * every receive lands in and every send is taken from), the peer's address handle, QPN and Q_Key.
 */
final class UdaddyNode {
    final int index;
    RdmaCmId id;
    boolean connected;
    ProtectionDomain pd;
    CompletionQueue cq;
    MemoryRegion mr;
    AddressHandle ah;
    int remoteQpn;
    int remoteQkey;

    UdaddyNode(int index) {
        this.index = index;
    }

    /**
     * destroy_node's device resources: the address handle, the QP, the CQ, the buffer, the PD (the
     * run destroys the ID after them, as udaddy does). Each is closed even when an earlier one fails,
     * so that the device can close; a second call closes none of them again.
     */
    void destroy() {
        closeQuietly(ah);
        if (id != null && id.qp() != null) {
            closeQuietly(id.qp());
        }
        closeQuietly(cq);
        closeQuietly(mr);
        closeQuietly(pd);
        ah = null;
        cq = null;
        mr = null;
        pd = null;
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (VerbsException e) {
            // the run's outcome is decided already; udaddy ignores these statuses too
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
