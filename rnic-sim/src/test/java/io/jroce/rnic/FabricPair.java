package io.jroce.rnic;

import java.util.List;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WorkCompletion;

/** Two devices on a simulated fabric with one connected RC QP each, for tests. */
final class FabricPair implements AutoCloseable {
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;
    final SimulatedFabric fabric;
    final Side a;
    final Side b;

    static final class Side {
        final RdmaDevice device;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;

        Side(SimulatedFabric fabric, String name, String address, int mrSize) {
            device = SoftRnic.builder().name(name).address(address).openOn(fabric);
            pd = device.allocPd();
            cq = device.createCq(1024);
            qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(256).maxRecvWr(256).maxSendSge(4).maxRecvSge(4)
                .maxInlineData(64));
            mr = pd.allocateMemory(mrSize, ACCESS);
        }
    }

    FabricPair(Mtu mtu, int mrSize) {
        this(mtu, mrSize, 7, 7);
    }

    FabricPair(Mtu mtu, int mrSize, int retryCount, int rnrRetry) {
        this(new SimulatedFabric(), mtu, mrSize, retryCount, rnrRetry);
    }

    /** A pair on {@code fabric}, whose faults apply from the first packet on (the QPs' own setup sends none). */
    FabricPair(SimulatedFabric fabric, Mtu mtu, int mrSize, int retryCount, int rnrRetry) {
        this(fabric, mtu, mrSize, retryCount, rnrRetry, 0x100, 0x200);
    }

    /** As above, with A's first send PSN {@code psnA} and B's {@code psnB} (near 2^24 to test the wrap). */
    FabricPair(SimulatedFabric fabric, Mtu mtu, int mrSize, int retryCount, int rnrRetry, int psnA, int psnB) {
        this.fabric = fabric;
        a = new Side(fabric, "jroce0", "10.0.0.1", mrSize);
        b = new Side(fabric, "jroce1", "10.0.0.2", mrSize);
        QpConnector rc = QpConnector.rc().accessFlags(ACCESS).pathMtu(mtu).retryCount(retryCount).rnrRetry(rnrRetry);
        rc.connect(a.qp, psnA, RemoteQp.of(b.qp, psnB, b.device.gids().get(0)));
        rc.connect(b.qp, psnB, RemoteQp.of(a.qp, psnA, a.device.gids().get(0)));
    }

    /** Runs the fabric until {@code n} completions are on {@code cq}, and returns them. */
    List<WorkCompletion> await(CompletionQueue cq, int n) {
        return FabricCompletions.await(fabric, cq, n, 60_000_000_000L,
            () -> " counters a=" + a.device.counters() + " b=" + b.device.counters());
    }

    @Override
    public void close() {
        for (Side s : new Side[] {a, b}) {
            s.qp.close();
            s.mr.close();
            s.cq.close();
            s.pd.close();
            s.device.close();
        }
    }
}
