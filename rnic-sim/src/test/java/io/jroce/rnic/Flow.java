package io.jroce.rnic;

import java.util.ArrayList;
import java.util.List;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * One direction of a reliability run: a workload that one side's QP posts against the other
 * side's memory, and the completions it has produced so far.
 */
final class Flow {
    final String name;
    final RcWorkload workload;
    final FabricPair.Side requester;
    final FabricPair.Side responder;
    final String requesterAddress;
    /** The requester's memory (the workload's "a" model) and the responder's ("b"). */
    final MemoryRegion local;
    final MemoryRegion remote;
    final List<WorkCompletion> sendWcs = new ArrayList<>();
    final List<WorkCompletion> recvWcs = new ArrayList<>();
    /** When the first error completion was polled; -1 while there is none. */
    long failedAtNs = -1;
    int recvsPosted;
    long nextRecvNs;

    Flow(String name, RcWorkload workload, FabricPair.Side requester, FabricPair.Side responder,
         String requesterAddress, MemoryRegion local, MemoryRegion remote) {
        this.name = name;
        this.workload = workload;
        this.requester = requester;
        this.responder = responder;
        this.requesterAddress = requesterAddress;
        this.local = local;
        this.remote = remote;
    }

    /**
     * Whether a completion polled on {@code side}'s CQ (which takes both of its QP's queues) belongs
     * to this flow: told apart by WR id, as a flushed receive has no reliable opcode.
     */
    boolean owns(FabricPair.Side side, WorkCompletion wc) {
        boolean recv = wc.wrId() < 0 || wc.wrId() >= RcOp.RECV_WR_ID_BASE;
        return recv ? side == responder : side == requester;
    }

    boolean done() {
        boolean sendsDone = sendWcs.size() >= workload.ops.size();
        // After an error the rest are flushed, and messages never sent are never received.
        return sendsDone && (recvWcs.size() >= workload.recvs.size() || anyError(sendWcs) || anyError(recvWcs));
    }

    static boolean anyError(List<WorkCompletion> wcs) {
        for (WorkCompletion wc : wcs) {
            if (wc.status() != WcStatus.SUCCESS) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name + ": send completions " + sendWcs + "\n    recv completions " + recvWcs + "\n    workload "
            + workload;
    }
}
