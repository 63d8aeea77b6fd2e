package io.jroce.tools.perftest;

import io.jroce.verbs.QpType;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.exchange.PerftestDest;
import java.util.List;

/**
 * ctx_set_send_wqes and ctx_set_recv_wqes: one send and one receive work request per QP, built
 * once and reused for every post (a post copies what it needs), with the addresses perftest walks:
 * in a BW test each message goes one cache-line-aligned step further through the QP's slot, back
 * to its start after a page (the cycle buffer), when the message fits in half a page.
 */
final class WorkRequests {
    /** FETCH_AND_ADD adds ATOMIC_ADD_VALUE, CMP_AND_SWAP swaps in ATOMIC_SWAP_VALUE. */
    private static final long ATOMIC_ADD = 1;
    private static final long ATOMIC_SWAP = 0;

    final SendWorkRequest[] send;
    final ScatterGatherEntry[] sendSge;
    final ReceiveWorkRequest[] recv;
    final ScatterGatherEntry[] recvSge;
    private final long[] sendBase;
    private final long[] remoteBase;
    private final long[] recvBase;
    private final long step;
    private final long stepsPerCycle;
    private final boolean cycles;
    private final int lkey;

    WorkRequests(PerftestParams p, PerftestContext ctx, List<PerftestDest> remote, int cycleBuffer, int cacheLine) {
        int n = p.numQps;
        send = new SendWorkRequest[n];
        sendSge = new ScatterGatherEntry[n];
        recv = new ReceiveWorkRequest[n];
        recvSge = new ScatterGatherEntry[n];
        sendBase = new long[n];
        remoteBase = new long[n];
        recvBase = new long[n];
        lkey = ctx.mr().lkey();
        step = PerftestContext.inc(p.size, cacheLine);
        stepsPerCycle = Math.max(1, cycleBuffer / step);
        cycles = p.tool.bandwidth() && p.size <= cycleBuffer / 2;
        int recvLength = (int) (p.qpType == QpType.UD ? p.size + PerftestContext.GRH : p.size);
        for (int i = 0; i < n; i++) {
            sendBase[i] = ctx.sendAddress(i);
            remoteBase[i] = remote.get(i).vaddr();
            recvBase[i] = ctx.recvBufferAddress(i, cacheLine);
            sendSge[i] = new ScatterGatherEntry(sendBase[i], (int) p.size, lkey);
            SendWorkRequest wr = new SendWorkRequest().wrId(i).sgList(sendSge[i]);
            switch (p.verb) {
                case WRITE -> wr.opcode(WrOpcode.RDMA_WRITE).remoteAddress(remoteBase[i]).rkey(remote.get(i).rkey());
                case READ -> wr.opcode(WrOpcode.RDMA_READ).remoteAddress(remoteBase[i]).rkey(remote.get(i).rkey());
                case ATOMIC -> {
                    wr.remoteAddress(remoteBase[i]).rkey(remote.get(i).rkey());
                    if (p.options.compareSwap()) {
                        wr.opcode(WrOpcode.ATOMIC_CMP_AND_SWP).swap(ATOMIC_SWAP);
                    } else {
                        wr.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(ATOMIC_ADD);
                    }
                }
                case SEND -> {
                    wr.opcode(WrOpcode.SEND);
                    if (p.qpType == QpType.UD && ctx.hasUdPeers()) {
                        UdPeer peer = ctx.udPeer(i);
                        wr.ud(peer.ah(), peer.qpn(), peer.qkey());
                    }
                }
                default -> throw new IllegalStateException();
            }
            send[i] = wr;
            recvSge[i] = new ScatterGatherEntry(recvBase[i], recvLength, lkey);
            recv[i] = new ReceiveWorkRequest().wrId(i).sgList(recvSge[i]);
        }
    }

    /** The send flags of the next post: SIGNALED as asked, INLINE when the message fits (SEND, WRITE). */
    static int flags(PerftestParams p, boolean signaled) {
        int f = signaled ? SendFlags.SIGNALED : 0;
        if ((p.verb == PerftestTool.Verb.SEND || p.verb == PerftestTool.Verb.WRITE) && p.size <= p.inlineSize) {
            f |= SendFlags.INLINE;
        }
        return f;
    }

    /** Points QP {@code i}'s send at message {@code count} of the cycle (increase_loc_addr, increase_rem_addr). */
    void aimSend(int i, long count) {
        long offset = cycles ? (count % stepsPerCycle) * step : 0;
        sendSge[i].set(sendBase[i] + offset, sendSge[i].length(), lkey);
        send[i].remoteAddress(remoteBase[i] + offset);
    }

    /** Points QP {@code i}'s receive at receive {@code count} of the cycle. */
    void aimRecv(int i, long count) {
        long offset = cycles ? (count % stepsPerCycle) * step : 0;
        recvSge[i].set(recvBase[i] + offset, recvSge[i].length(), lkey);
    }
}
