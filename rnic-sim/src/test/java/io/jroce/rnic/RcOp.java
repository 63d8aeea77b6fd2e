package io.jroce.rnic;

import java.util.List;

import io.jroce.rnic.ModelMemory.Region;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WrOpcode;

/**
 * One send work request of a reliability workload, with what it must produce: local regions in
 * the requester's memory, remote offset in the responder's, and the receive WQE of the responder
 * it consumes (SEND, SEND with immediate, RDMA WRITE with immediate).
 */
record RcOp(int index, WrOpcode opcode, int length, List<Region> local, int remoteOffset, int imm,
            long compareAdd, long swap, Recv recv) {

    /** A receive WQE posted on B, and the completion it must end with. */
    record Recv(int index, List<Region> sges, WcOpcode opcode, int byteLen, boolean withImm, int imm) {
        /** @param mr the responder's memory the workload's "b" model stands for */
        ReceiveWorkRequest toWorkRequest(MemoryRegion mr) {
            ScatterGatherEntry[] sg = new ScatterGatherEntry[sges.size()];
            for (int i = 0; i < sg.length; i++) {
                sg[i] = ScatterGatherEntry.of(mr, sges.get(i).offset(), sges.get(i).length());
            }
            return new ReceiveWorkRequest().wrId(RECV_WR_ID_BASE + index).sgList(sg);
        }
    }

    /** Receive WR ids start here, so that a send and a receive completion are never confused. */
    static final long RECV_WR_ID_BASE = 1_000_000;

    /** @param localMr the requester's memory ("a"), {@code remoteMr} the responder's ("b") */
    SendWorkRequest toWorkRequest(MemoryRegion localMr, MemoryRegion remoteMr) {
        ScatterGatherEntry[] sg = new ScatterGatherEntry[local.size()];
        for (int i = 0; i < sg.length; i++) {
            sg[i] = ScatterGatherEntry.of(localMr, local.get(i).offset(), local.get(i).length());
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(index).opcode(opcode).sendFlags(SendFlags.SIGNALED).sgList(sg);
        if (opcode.hasImmediate()) {
            wr.immData(imm);
        }
        if (remoteOffset >= 0) {
            wr.remoteAddress(remoteMr.address() + remoteOffset).rkey(remoteMr.rkey());
        }
        if (opcode.isAtomic()) {
            wr.compareAdd(compareAdd).swap(swap);
        }
        return wr;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append('#').append(index).append(' ').append(opcode)
            .append(" len=").append(length).append(" sge=").append(local);
        if (remoteOffset >= 0) {
            sb.append(" remote=").append(remoteOffset);
        }
        if (opcode.isAtomic()) {
            sb.append(" compareAdd=").append(compareAdd).append(" swap=").append(swap);
        }
        if (recv != null) {
            sb.append(" recv#").append(recv.index()).append(recv.sges());
        }
        return sb.toString();
    }
}
