package io.jroce.tools.mckey;

import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * One of mckey's {@code struct cmatest_node}: an ID that joins the group and the resources it made
 * for it (a PD, a CQ for both queues, one message buffer of the message size plus the 40-byte GRH
 * area that every receive lands in and every send is taken from), and the group's address handle,
 * QPN and Q_Key from the MULTICAST_JOIN.
 */
final class MckeyNode {
    final int index;
    final RdmaCmId id;
    boolean connected;
    ProtectionDomain pd;
    CompletionQueue cq;
    MemoryRegion mr;
    AddressHandle ah;
    int remoteQpn;
    int remoteQkey;

    MckeyNode(int index, RdmaCmId id) {
        this.index = index;
        this.id = id;
    }

    /**
     * destroy_node: the address handle, the QP, the CQ, the buffer, the PD, then the ID. Each is
     * closed even when an earlier one fails, so that the device can close.
     */
    void destroy() {
        closeQuietly(ah);
        if (id.qp() != null) {
            closeQuietly(id.qp());
        }
        closeQuietly(cq);
        closeQuietly(mr);
        closeQuietly(pd);
        id.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (VerbsException e) {
            // the run's outcome is decided already; mckey ignores these statuses too
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
