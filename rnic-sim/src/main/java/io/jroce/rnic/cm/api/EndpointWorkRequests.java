package io.jroce.rnic.cm.api;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/**
 * A synchronous endpoint's data helpers ({@code rdma_post_send}, {@code rdma_post_recv} and the like of
 * rdma_verbs.h): one buffer of a registered region per work request, posting one reused work request
 * per queue, each guarded by itself.
 */
final class EndpointWorkRequests {
    private final SendWorkRequest sendWr = new SendWorkRequest();
    private final ScatterGatherEntry sendSge = new ScatterGatherEntry();
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest();
    private final ScatterGatherEntry recvSge = new ScatterGatherEntry();

    EndpointWorkRequests() {
        sendWr.sgList(new ScatterGatherEntry[] {sendSge}, 1);
        recvWr.sgList(new ScatterGatherEntry[] {recvSge}, 1);
    }

    void postRecv(QueuePair q, long wrId, MemoryRegion mr, long offset, int length) {
        Arguments.notNull(mr, "memory region");
        synchronized (recvWr) {
            recvSge.set(mr.address() + offset, length, mr.lkey());
            q.postRecv(recvWr.wrId(wrId));
        }
    }

    void postSend(QueuePair q, WrOpcode op, long wrId, MemoryRegion mr, long offset, int length, int flags,
                  long remoteAddress, int rkey, int imm) {
        Arguments.notNull(mr, "memory region");
        synchronized (sendWr) {
            sendSge.set(mr.address() + offset, length, mr.lkey());
            sendWr.wrId(wrId).opcode(op).sendFlags(flags).remoteAddress(remoteAddress).rkey(rkey).immData(imm);
            q.postSend(sendWr);
        }
    }
}
