package io.jroce.testsupport;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/**
 * An RC QP on each of two open devices, connected to each other, each with its protection domain,
 * completion queue and memory region: the set-up of a test in which A sends, writes or reads and B
 * answers. The test opens the devices (on a simulated fabric or UDP, with what logs it wants); the
 * pair closes them last, after its own resources, in the reverse order of their making.
 */
public final class RcPair implements AutoCloseable {
    /** The requester's device and resources. */
    public final RdmaDevice a;
    /** The responder's device and resources. */
    public final RdmaDevice b;
    public final ProtectionDomain pdA;
    public final ProtectionDomain pdB;
    public final CompletionQueue cqA;
    public final CompletionQueue cqB;
    public final MemoryRegion mrA;
    public final MemoryRegion mrB;
    public final QueuePair qpA;
    public final QueuePair qpB;

    /**
     * Allocates each side's resources and connects A's QP (first send PSN {@code psnA}) with B's
     * ({@code psnB}) through {@code connector}.
     *
     * @param a the requester's device
     * @param b the responder's device
     * @param mrSize the bytes of each side's memory region
     * @param access the regions' access flags ({@code io.jroce.verbs.AccessFlags})
     * @param connector the QPs' attributes; the access flags a remote READ or WRITE needs are the test's to set
     * @param psnA A's first send PSN
     * @param psnB B's first send PSN
     */
    public RcPair(RdmaDevice a, RdmaDevice b, int mrSize, int access, QpConnector connector, int psnA, int psnB) {
        this.a = a;
        this.b = b;
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(16);
        cqB = b.createCq(16);
        mrA = pdA.allocateMemory(mrSize, access);
        mrB = pdB.allocateMemory(mrSize, access);
        qpA = pdA.createQp(new QpInitAttributes().cq(cqA));
        qpB = pdB.createQp(new QpInitAttributes().cq(cqB));
        connector.connect(qpA, psnA, RemoteQp.of(qpB, psnB, b.gids().get(0)));
        connector.connect(qpB, psnB, RemoteQp.of(qpA, psnA, a.gids().get(0)));
    }

    /**
     * B posts a receive WQE for {@code length} bytes at the start of its region.
     *
     * @param wrId the work request's id
     * @param length the bytes it takes
     */
    public void postReceive(long wrId, int length) {
        qpB.postRecv(new ReceiveWorkRequest().wrId(wrId).sgList(ScatterGatherEntry.of(mrB, 0, length)));
    }

    /**
     * A posts a signalled SEND of the first {@code length} bytes of its region.
     *
     * @param wrId the work request's id
     * @param length the message's length
     */
    public void send(long wrId, int length) {
        qpA.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrA, 0, length)));
    }

    /**
     * A posts a signalled RDMA READ of {@code length} bytes from the start of B's region into its own.
     *
     * @param wrId the work request's id
     * @param length the bytes read
     */
    public void read(long wrId, int length) {
        qpA.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(mrB.address()).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, 0, length)));
    }

    /** Closes the QPs, regions, CQs, PDs and devices, B's before A's; a failure to close one does not stop the rest. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (AutoCloseable c : new AutoCloseable[] {qpB, qpA, mrB, mrA, cqB, cqA, pdB, pdA, b, a}) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
