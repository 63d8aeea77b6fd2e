package io.jroce.rnic.core;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AccessViolationException;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidKeyException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpType;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/** The checks of a send work request that depend on its kind: the QP type, UD addressing, window binds. */
final class SendRequestChecks {
    private SendRequestChecks() {
    }

    /** Which operations each transport service carries (IBTA 9.8: RC carries all, UC no READ or atomics, UD only SENDs). */
    static void opcodeForType(QpType type, WrOpcode op) {
        boolean ok = switch (type) {
            case RC -> true;
            case UC -> op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.RDMA_WRITE
                || op == WrOpcode.RDMA_WRITE_WITH_IMM || op.isLocal();
            case UD -> op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM;
        };
        if (!ok) {
            throw new InvalidAttributeException(op + " is not available on a " + type + " QP");
        }
    }

    /**
     * Checks a memory window bind (IBTA 10.6.7.2): a window of this PD and the right type, a region
     * of this PD registered with MW_BIND that holds the range, and access that the region's local
     * access supports (remote write and atomic need LOCAL_WRITE on the region).
     */
    static void bind(ProtectionDomain pd, MemoryWindow window, int newRkey, MemoryRegion region,
                     long address, long length, int access, int type) {
        if (!(window instanceof SoftMw mw) || mw.pd != pd) {
            throw new InvalidAttributeException("the memory window must be one of this QP's protection domain");
        }
        if (mw.isClosed()) {
            throw new ResourceClosedException("the memory window is deallocated");
        }
        if (mw.type != type) {
            throw new InvalidAttributeException("a type " + mw.type + " window is bound with "
                + (mw.type == 1 ? "QueuePair.bindMemoryWindow" : "a BIND_MW work request"));
        }
        if (!KeyTable.sameSlot(mw.rkey(), newRkey)) {
            throw new InvalidAttributeException("the new rkey 0x" + Integer.toHexString(newRkey)
                + " may change only the low 8 bits of 0x" + Integer.toHexString(mw.rkey()) + " (ibv_inc_rkey)");
        }
        if (length == 0) {
            return; // unbinding
        }
        if (!(region instanceof SoftMr mr) || mr.pd() != pd || mr.isClosed()) {
            throw new InvalidKeyException("the region to bind must be a registered region of this protection domain");
        }
        if (!mr.allows(AccessFlags.MW_BIND)) {
            throw new AccessViolationException(mr + " was not registered with MW_BIND");
        }
        if (length < 0 || mr.offsetOf(address, length) < 0) {
            throw new AccessViolationException("window [0x" + Long.toHexString(address) + ", +" + length + ") lies outside " + mr);
        }
        int remote = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        if ((access & ~remote) != 0) {
            throw new InvalidAttributeException("window access may only grant remote access, got " + AccessFlags.describe(access));
        }
        if ((access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 && !mr.allows(AccessFlags.LOCAL_WRITE)) {
            throw new AccessViolationException("remote write or atomic access through a window needs LOCAL_WRITE on " + mr);
        }
    }

    static SoftAh ud(ProtectionDomain pd, SendWorkRequest wr) {
        if (!(wr.addressHandle() instanceof SoftAh ah)) {
            throw new InvalidAttributeException("a UD send needs an address handle of this device (SendWorkRequest.ud)");
        }
        if (ah.isClosed()) {
            throw new ResourceClosedException("the send's address handle is destroyed");
        }
        if (ah.pd != pd) {
            throw new InvalidAttributeException("the address handle belongs to another protection domain");
        }
        if ((wr.remoteQpn() & ~0xFFFFFF) != 0) {
            throw new InvalidAttributeException("remote QPN is 24 bits, got 0x" + Integer.toHexString(wr.remoteQpn()));
        }
        return ah;
    }
}
