package io.jroce.rnic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Psn;

/**
 * Tells a RETRY_EXC_ERR the network earned from one the protocol caused. At 20% loss a packet and
 * its 7 retries are all lost now and then (0.2^8 per attempt), and then RETRY_EXC_ERR is right
 * (IBTA 9.7.6.1.3). It is earned only if, since the 8th-last transmission of the PSN the
 * requester was stuck at, nothing that acknowledges that PSN reached the requester; otherwise the
 * requester threw away progress (a bug).
 */
final class RetryExhaustion {
    private RetryExhaustion() {
    }

    /**
     * @param events     the trace, oldest first
     * @param requester  the requester's address
     * @param failedAtNs when the RETRY_EXC_ERR completion was seen
     * @param attempts   retry_cnt + 1
     * @return why the exhaustion was earned, or null when the trace does not show it was
     */
    static String earned(List<TraceEvent> events, String requester, long failedAtNs, int attempts) {
        byte[] a = IpAddresses.toGidBytes(requester);
        List<TraceEvent> requests = new ArrayList<>();
        for (TraceEvent e : events) {
            boolean sent = e.fate() != Fate.DUPLICATED; // a copy is the network's, not a transmission
            if (sent && e.timeNs() <= failedAtNs && Arrays.equals(e.src(), a) && "req".equals(e.direction())) {
                requests.add(e);
            }
        }
        int stuck = lastGoBackPsn(requests);
        if (stuck < 0) {
            return null;
        }
        List<TraceEvent> sends = new ArrayList<>();
        for (TraceEvent e : requests) {
            if (e.psn() == stuck) {
                sends.add(e);
            }
        }
        if (sends.size() < attempts) {
            return null; // fewer transmissions than the budget (or the trace ring lost them)
        }
        long from = sends.get(sends.size() - attempts).timeNs();
        for (TraceEvent e : events) {
            boolean arrived = e.arriveNs() >= from && e.arriveNs() <= failedAtNs && e.fate() != Fate.DROPPED
                && e.fate() != Fate.CORRUPTED;
            if (arrived && Arrays.equals(e.dst(), a) && acknowledges(e, stuck)) {
                return null; // the requester heard that the stuck PSN got through
            }
        }
        StringBuilder sb = new StringBuilder("earned: PSN 0x").append(Integer.toHexString(stuck))
            .append(" was sent ").append(attempts).append(" times and no answer to it arrived:");
        for (TraceEvent e : sends.subList(sends.size() - attempts, sends.size())) {
            sb.append("\n    ").append(e.format());
        }
        return sb.toString();
    }

    /** The PSN of the request that started the last go-back-N (a PSN not above the one before it). */
    private static int lastGoBackPsn(List<TraceEvent> requests) {
        for (int i = requests.size() - 1; i > 0; i--) {
            if (Psn.compare(requests.get(i).psn(), requests.get(i - 1).psn()) <= 0) {
                return requests.get(i).psn();
            }
        }
        return requests.isEmpty() ? -1 : requests.get(0).psn();
    }

    /** A response that tells the requester the request with {@code psn} arrived. */
    private static boolean acknowledges(TraceEvent e, int psn) {
        OpcodeInfo info = e.opcode() < 0 ? null : OpcodeTable.get(e.opcode());
        if (info == null) {
            return false;
        }
        int order = Psn.compare(e.psn(), psn);
        if (info.operation() == Operation.RDMA_READ_RESPONSE || info.operation() == Operation.ATOMIC_ACKNOWLEDGE) {
            return order == 0;
        }
        if (e.opcode() != Opcode.RC_ACKNOWLEDGE || e.syndrome() < 0) {
            return false;
        }
        AethKind kind = AethSyndrome.kind(e.syndrome());
        return kind == AethKind.ACK ? order >= 0 : order > 0; // a NAK or RNR NAK names the first PSN not done
    }
}
