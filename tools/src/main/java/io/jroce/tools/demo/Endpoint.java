package io.jroce.tools.demo;

import io.jroce.tools.Closer;
import io.jroce.tools.DeviceOptions;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;

/**
 * One side of the demo: an RNIC with a protection domain, two memory regions, a completion queue
 * and one RC queue pair. {@link #localMr()} is only ever touched by this side (send source, READ
 * sink, atomic result); {@link #remoteMr()} is open to the peer (receive buffer, WRITE and READ
 * target, atomic target).
 */
final class Endpoint implements AutoCloseable {
    /** The largest message of the demo. */
    static final int MAX_MESSAGE = 1 << 20;
    /** Bytes after each message that must stay untouched. */
    static final int GUARD = 64;
    /** Where the 8-byte atomic operand sits in both regions (8-byte aligned, past the guard). */
    static final int ATOMIC_OFFSET = MAX_MESSAGE + 2048;
    static final int REMOTE_ACCESS = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
    private static final int REGION_LENGTH = MAX_MESSAGE + 4096;
    private static final int QUEUE_DEPTH = 16;

    private final Closer closer = new Closer();
    private final DeviceOptions options;
    private final int psn;
    private final RdmaDevice device;
    private final MemoryRegion localMr;
    private final MemoryRegion remoteMr;
    private final CompletionQueue cq;
    private final QueuePair qp;

    /** Opens the RNIC on its one address and creates every resource; on failure releases those already created. */
    Endpoint(DeviceOptions options, int psn) {
        this.options = options;
        this.psn = psn;
        try {
            device = closer.register(options.open());
            ProtectionDomain pd = closer.register(device.allocPd());
            localMr = closer.register(pd.allocateMemory(REGION_LENGTH, AccessFlags.LOCAL_WRITE));
            remoteMr = closer.register(pd.allocateMemory(REGION_LENGTH, AccessFlags.LOCAL_WRITE | REMOTE_ACCESS));
            cq = closer.register(device.createCq(2 * QUEUE_DEPTH));
            qp = closer.register(pd.createQp(new QpInitAttributes().type(QpType.RC).cq(cq)
                .maxSendWr(QUEUE_DEPTH).maxRecvWr(QUEUE_DEPTH)));
        } catch (RuntimeException e) {
            try {
                closer.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    /**
     * Moves the QP RESET -> INIT -> RTR -> RTS towards {@code peer}, with the values an
     * application learns from its peer out of band (QPN, PSN, GID) and ibv_rc_pingpong's timers.
     */
    void connect(Endpoint peer, Mtu pathMtu, int rdAtomic) {
        // ibv_rc_pingpong's timers are QpConnector's defaults: min RNR timer 12, timeout 14, 7 retries, 7 RNR retries
        QpConnector.rc().accessFlags(REMOTE_ACCESS).pathMtu(pathMtu).rdAtomic(rdAtomic)
            .connect(qp, psn, RemoteQp.of(peer.qp, peer.psn, peer.gid(), peer.port()));
    }

    String name() {
        return options.name();
    }

    String address() {
        return options.binds().get(0);
    }

    int port() {
        return options.udpPort();
    }

    int psn() {
        return psn;
    }

    Gid gid() {
        return device.gids().get(0);
    }

    RdmaDevice device() {
        return device;
    }

    MemoryRegion localMr() {
        return localMr;
    }

    MemoryRegion remoteMr() {
        return remoteMr;
    }

    CompletionQueue cq() {
        return cq;
    }

    QueuePair qp() {
        return qp;
    }

    @Override
    public void close() {
        closer.close();
    }
}
