package io.jroce.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.LinkConditions;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.WorkCompletion;

/**
 * Two jroce devices, A and B, each with a protection domain, a completion queue, a 64 KiB region
 * open to local and remote writes, remote reads and atomics, and an RC queue pair; A's QP (first
 * PSN 0x100) and B's (0x200) are in RTS towards each other with {@link QpConnector}'s defaults. Made
 * and closed by {@link DevicePairExtension}; a test may also {@link #open} and close one itself.
 */
public final class DevicePair implements AutoCloseable {
    /** Bytes of each side's region. */
    public static final int REGION_BYTES = 64 * 1024;
    /** The most a reordered packet is held back on the fabric. */
    static final long REORDER_HOLD_NS = 50_000;

    private final DeviceTransport transport;
    private final long seed;
    private final SimulatedFabric fabric;
    private final Side a;
    private final Side b;

    /** One device and what it was given. */
    public static final class Side {
        private final RdmaDevice device;
        private final ProtectionDomain pd;
        private final CompletionQueue cq;
        private final MemoryRegion mr;
        private final QueuePair qp;

        Side(RdmaDevice device) {
            this.device = device;
            this.pd = device.allocPd();
            this.cq = device.createCq(256);
            this.mr = pd.allocateMemory(REGION_BYTES, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
            this.qp = pd.createQp(new QpInitAttributes().type(QpType.RC).cq(cq).maxSendWr(128).maxRecvWr(128));
        }

        /**
         * The device.
         *
         * @return the device
         */
        public RdmaDevice device() {
            return device;
        }

        /**
         * Its protection domain.
         *
         * @return the PD
         */
        public ProtectionDomain pd() {
            return pd;
        }

        /**
         * The CQ of its QP's sends and receives.
         *
         * @return the CQ
         */
        public CompletionQueue cq() {
            return cq;
        }

        /**
         * Its registered region of {@link #REGION_BYTES} bytes.
         *
         * @return the region
         */
        public MemoryRegion mr() {
            return mr;
        }

        /**
         * Its RC queue pair, in RTS towards the other side's.
         *
         * @return the QP
         */
        public QueuePair qp() {
            return qp;
        }

        void close() {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            device.close();
        }
    }

    private DevicePair(DeviceTransport transport, long seed, SimulatedFabric fabric, Side a, Side b) {
        this.transport = transport;
        this.seed = seed;
        this.fabric = fabric;
        this.a = a;
        this.b = b;
    }

    /**
     * Opens a pair as {@code options} says (null: the defaults).
     *
     * @param options the options, or null
     * @return the pair, the caller's to close
     */
    public static DevicePair open(DevicePairOptions options) {
        DeviceTransport transport = options == null ? DeviceTransport.FABRIC : options.transport();
        long seed = options == null || options.seed() == DevicePairOptions.RANDOM_SEED
            ? ThreadLocalRandom.current().nextLong() : options.seed();
        if (transport == DeviceTransport.UDP) {
            int port = freePort();
            Side a = new Side(SoftRnic.builder().name("jroce-a").address("127.0.0.1").udpPort(port).open());
            Side b = new Side(SoftRnic.builder().name("jroce-b").address("127.0.0.2").udpPort(port).open());
            return connected(new DevicePair(transport, seed, null, a, b), port);
        }
        SimulatedFabric fabric = SimulatedFabric.builder().seed(seed).build();
        if (options != null) {
            fabric.faults().defaults(LinkConditions.ideal().loss(options.loss()).duplicate(options.duplicate())
                .reorder(options.reorder(), REORDER_HOLD_NS));
        }
        Side a = new Side(SoftRnic.builder().name("jroce-a").address("10.0.0.1").openOn(fabric));
        Side b = new Side(SoftRnic.builder().name("jroce-b").address("10.0.0.2").openOn(fabric));
        return connected(new DevicePair(transport, seed, fabric, a, b), 4791);
    }

    private static DevicePair connected(DevicePair p, int port) {
        QpConnector rc = QpConnector.rc();
        rc.connect(p.a.qp, 0x100, RemoteQp.of(p.b.qp, 0x200, p.b.device.gids().get(0), port));
        rc.connect(p.b.qp, 0x200, RemoteQp.of(p.a.qp, 0x100, p.a.device.gids().get(0), port));
        return p;
    }

    /** A UDP port no socket of this host holds on 127.0.0.1 right now. */
    private static int freePort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free UDP port on 127.0.0.1", e);
        }
    }

    /**
     * Side A (10.0.0.1 on the fabric, 127.0.0.1 on UDP).
     *
     * @return side A
     */
    public Side a() {
        return a;
    }

    /**
     * Side B (10.0.0.2 on the fabric, 127.0.0.2 on UDP).
     *
     * @return side B
     */
    public Side b() {
        return b;
    }

    /**
     * Where the devices talk.
     *
     * @return the transport
     */
    public DeviceTransport transport() {
        return transport;
    }

    /**
     * The seed the fabric's faults are drawn from (also drawn for UDP, where it means nothing).
     *
     * @return the seed
     */
    public long seed() {
        return seed;
    }

    /**
     * The simulated fabric, to change its faults or run its clock; empty on UDP.
     *
     * @return the fabric
     */
    public Optional<SimulatedFabric> fabric() {
        return Optional.ofNullable(fabric);
    }

    /**
     * Waits for the next completion on {@code cq}: on the fabric its clock runs on this thread until
     * one arrives; on UDP it waits in real time.
     *
     * @param cq the completion queue
     * @param timeout how long at most, in real time on UDP and virtual time on the fabric
     * @param unit the unit of {@code timeout}
     * @return the completion
     * @throws AssertionError none came in time (with the seed and the trace)
     * @throws InterruptedException interrupted while waiting
     */
    public WorkCompletion await(CompletionQueue cq, long timeout, TimeUnit unit) throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        if (!cq.pollBlocking(wc, timeout, unit)) {
            throw new AssertionError("no completion within " + timeout + " " + unit + "\n" + report(32));
        }
        return wc;
    }

    /**
     * What to print when a test fails: the transport, the seed, how to replay it, and on the fabric
     * the last {@code packets} entries of its packet trace.
     *
     * @param packets how many trace entries at most
     * @return the report
     */
    public String report(int packets) {
        StringBuilder s = new StringBuilder("jroce device pair on ").append(transport);
        if (fabric == null) {
            return s.append(" (no packet trace on UDP: capture with SoftRnic.Builder.pcap)").toString();
        }
        s.append(", seed ").append(seed).append(": replay with @DevicePairOptions(seed = ").append(seed)
            .append("L, ...)\nlast packets of the fabric's trace:\n").append(fabric.trace().dump(packets));
        return s.toString();
    }

    /** Closes both sides, B then A; what a test closed already is skipped (close is idempotent). */
    @Override
    public void close() {
        try {
            b.close();
        } finally {
            a.close();
        }
    }
}
