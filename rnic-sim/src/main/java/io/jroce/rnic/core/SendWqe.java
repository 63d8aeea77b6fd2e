package io.jroce.rnic.core;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WrOpcode;

/** A send queue entry: the posted work request, copied, plus the requester's progress on it. */
final class SendWqe {
    final SgList sg;
    final UnsafeBuffer inlineView;
    long wrId;
    WrOpcode opcode;
    boolean signaled;
    boolean fence;
    boolean solicited;
    boolean isInline;
    long length;
    int immData;
    long remoteAddress;
    int rkey;
    long compareAdd;
    long swap;
    /** UD: the address handle, destination QP and Q_Key. */
    UdDestination ah;
    int remoteQpn;
    int remoteQkey;
    /** SEND_WITH_INV / LOCAL_INV: the rkey to invalidate. */
    int invalidateRkey;
    /** BIND_MW: the window, its new rkey, and the part of a region it opens. */
    WindowAccess bindWindow;
    int bindRkey;
    RegionAccess bindRegion;
    long bindAddress;
    long bindLength;
    int bindAccess;

    // Requester progress (I/O thread only).
    boolean started;
    int firstPsn;
    int lastPsn;
    /** READ: response packets placed so far; the retry point is firstPsn + this. */
    int readPacketsDone;
    boolean responseDone;
    WcStatus status;

    SendWqe(int maxSge, int maxInline) {
        sg = new SgList(maxSge);
        inlineView = new UnsafeBuffer(new byte[maxInline]);
    }

    void resetProgress() {
        started = false;
        readPacketsDone = 0;
        responseDone = false;
        status = WcStatus.SUCCESS;
    }

    boolean isReadOrAtomic() {
        return opcode == WrOpcode.RDMA_READ || opcode.isAtomic();
    }

    boolean isLocal() {
        return opcode.isLocal();
    }

    /** Number of PSNs the operation uses: one per request packet, or per READ response packet. */
    int packetCount(int mtu) {
        if (opcode.isLocal()) {
            return 0;
        }
        if (opcode.isAtomic() || length == 0) {
            return 1;
        }
        return (int) ((length + mtu - 1) / mtu);
    }
}
