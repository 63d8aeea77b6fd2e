package io.jroce.rnic.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventListener;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.PortAttributes;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.TransportException;

/** A simulated RNIC with one port: the root of its resources, bound to one transport and I/O thread. */
public final class SoftDevice implements RdmaDevice {
    private static final Logger LOG = LoggerFactory.getLogger(SoftDevice.class);
    private final String name;
    private final List<Gid> gids;
    private final Mtu activeMtu;
    private final RoceTransport transport;
    private final IoContext io;
    private final Counters counters;
    private final KeyTable keys = new KeyTable();
    private final MemoryBudget memory;
    private final RnicEngine engine;
    /** Who hears of the protocol's events, completions included. */
    private final ProtocolEvents events;
    private final Gsi gsi;
    private volatile io.jroce.stack.transport.PollingHint pollingHint;
    private final Set<SoftPd> pds = ConcurrentHashMap.newKeySet();
    private final Set<SoftCq> cqs = ConcurrentHashMap.newKeySet();
    private final Set<SoftCompletionChannel> channels = ConcurrentHashMap.newKeySet();
    private final AsyncEvents asyncEvents;
    private final AtomicInteger nextPd = new AtomicInteger(1);
    private final QpnAllocator qpns = new QpnAllocator();
    private int liveQps;
    /** Each multicast group some QP is attached to, with its QPs in the order they attached. */
    private final Map<Gid, List<SoftQp>> mcastGroups = new HashMap<>();
    private int mcastAttachments;
    private volatile boolean closed;
    /** Run once when the device closes (the RDMA CM's registry of open devices forgets it). */
    private final List<Runnable> closeHooks = new java.util.concurrent.CopyOnWriteArrayList<>();

    private SoftDevice(String name, List<Gid> gids, Mtu activeMtu, RoceTransport transport, IoContext io,
                       Counters counters, long memoryBudget, ProtocolEvents events) {
        this.name = name;
        this.memory = new MemoryBudget(name, memoryBudget);
        this.counters = counters;
        this.gids = List.copyOf(gids);
        this.activeMtu = activeMtu;
        this.transport = transport;
        this.io = io;
        counters.dropListener(events);
        this.events = events;
        this.engine = new RnicEngine(io, transport, counters, keys, this.gids, events);
        this.gsi = engine.gsi();
        this.asyncEvents = new AsyncEvents(io, name);
    }

    /**
     * Opens a device over {@code transport}, whose I/O thread {@code io} names, and starts receiving.
     *
     * @param gids     the GID table: one entry per local address the transport serves
     * @param counters the device's counters, shared with the transport so that its drops count too
     * @param memoryBudget the heap bytes its QPs', SRQs' and CQs' queues may take ({@link MemoryBudget})
     * @param name the device's name
     * @param activeMtu the port's active MTU
     * @param transport what the device sends and receives through
     * @param io the thread that owns the device
     * @param events   who hears of the protocol's events and drops ({@link ProtocolEvents#logging} by default)
     * @return the open device
     */
    public static SoftDevice open(String name, List<Gid> gids, Mtu activeMtu, RoceTransport transport, IoContext io,
                                  Counters counters, long memoryBudget, ProtocolEvents events) {
        if (gids.isEmpty() || gids.size() > DeviceLimits.GID_TABLE_LENGTH) {
            throw new InvalidAttributeException("a device needs 1.." + DeviceLimits.GID_TABLE_LENGTH + " GIDs, got " + gids.size());
        }
        if (memoryBudget <= 0) {
            throw new InvalidAttributeException("a device's memory budget must be positive, got " + memoryBudget);
        }
        SoftDevice device = new SoftDevice(name, gids, activeMtu, transport, io, counters, memoryBudget,
            Arguments.notNull(events, "protocol events"));
        transport.start(device.engine);
        // Held for the first listener: nobody can have set one yet (see AsyncEvents).
        device.raiseAsyncEvent(new AsyncEvent(AsyncEventType.PORT_ACTIVE, null, 1));
        return device;
    }

    /** Expires protocol timers; the runtime calls it periodically on the I/O thread. */
    public void onTimer() {
        engine.onTimer();
    }

    ProtocolEvents events() {
        return events;
    }

    Counters counterSet() {
        return counters;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Gid> gids() {
        return gids;
    }

    Mtu activeMtu() {
        return activeMtu;
    }

    IoContext io() {
        return io;
    }

    KeyTable keys() {
        return keys;
    }

    MemoryBudget memory() {
        return memory;
    }

    /**
     * Set once after opening, before any CQ is polled; null for none (the simulated fabric).
     *
     * @param hint what a CQ poll tells the transport, or null
     */
    public void pollingHint(io.jroce.stack.transport.PollingHint hint) {
        this.pollingHint = hint;
    }

    @Override
    public int progress() {
        return closed ? 0 : io.progress();
    }

    /**
     * The calling application thread is about to block until the device does something (a
     * blocking poll, a completion channel, the RDMA CM): in the invoker mode, the fallback thread
     * takes the device over at once. Any thread.
     */
    public void handOver() {
        io.handOver();
    }

    /** Whether the device runs on a virtual clock that a blocking wait must run ({@link IoContext#virtualTime}). */
    boolean virtualTime() {
        return io.virtualTime();
    }

    /** Runs the device's virtual clock until {@code ready} or {@code timeoutNs} of its time ({@link IoContext#runUntil}). */
    boolean runUntil(BooleanSupplier ready, long timeoutNs) {
        return io.runUntil(ready, timeoutNs);
    }

    /** Called by a CQ poll that found nothing: the application waits for this device's I/O thread. */
    void emptyPoll() {
        io.jroce.stack.transport.PollingHint h = pollingHint;
        if (h != null) {
            h.emptyPoll();
        }
    }

    /**
     * The device's General Services Interface, QP1: the connection manager's seam (its MAD handler
     * and sending). It lives from open to close; after close it receives nothing.
     *
     * @return the GSI
     */
    public Gsi gsi() {
        return gsi;
    }

    RnicEngine engine() {
        return engine;
    }

    /** IBTA PortInfo:PortPhysicalState: LinkUp while open, Disabled once closed. */
    private static final int PHYS_STATE_LINK_UP = 5;
    private static final int PHYS_STATE_DISABLED = 3;

    @Override
    public DeviceAttributes queryDevice() {
        return new DeviceAttributes("0.1.0", nodeGuid(), DeviceLimits.VENDOR_ID, 0, DeviceLimits.MAX_MR_SIZE,
            0xFFFFF000L, DeviceLimits.MAX_QP, DeviceLimits.MAX_QP_WR, DeviceLimits.MAX_SGE, DeviceLimits.MAX_CQ,
            DeviceLimits.MAX_CQE, DeviceLimits.MAX_MR, DeviceLimits.MAX_PD, DeviceLimits.MAX_QP_RD_ATOM,
            DeviceLimits.MAX_QP_INIT_RD_ATOM, DeviceLimits.MAX_INLINE_DATA, "ATOMIC_HCA", 1,
            DeviceLimits.MAX_MCAST_GRP, DeviceLimits.MAX_MCAST_QP_ATTACH, DeviceLimits.MAX_TOTAL_MCAST_QP_ATTACH,
            nodeGuid(), 0, DeviceLimits.DEVICE_CAP_FLAGS, DeviceLimits.MAX_SGE, DeviceLimits.MAX_RES_RD_ATOM,
            DeviceLimits.MAX_MW, DeviceLimits.UNCOUNTED, DeviceLimits.UNCOUNTED, DeviceLimits.MAX_QP_WR,
            DeviceLimits.MAX_SGE, DeviceLimits.MAX_PKEYS, DeviceLimits.LOCAL_CA_ACK_DELAY);
    }

    /** An EUI-64 style GUID from the first GID's last 6 bytes, as rxe derives it from the MAC. */
    private long nodeGuid() {
        Gid g = gids.get(0);
        long guid = 0x02L << 56 | 0xFFFEL << 24;
        for (int i = 0; i < 3; i++) {
            guid |= (long) (g.byteAt(10 + i) & 0xff) << (48 - 8 * i);
            guid |= (long) (g.byteAt(13 + i) & 0xff) << (16 - 8 * i);
        }
        return guid;
    }

    @Override
    public PortAttributes queryPort() {
        return new PortAttributes(closed ? "PORT_DOWN" : "PORT_ACTIVE", Mtu.MTU_4096, activeMtu, gids.size(), "Ethernet", 0,
            DeviceLimits.MAX_MSG_SIZE, 1, DeviceLimits.PORT_CAP_FLAGS, 1, 1, 1, closed ? PHYS_STATE_DISABLED : PHYS_STATE_LINK_UP);
    }

    @Override
    public ProtectionDomain allocPd() {
        ensureOpen();
        if (pds.size() >= DeviceLimits.MAX_PD) {
            throw new ResourceLimitException("device " + name + " already has max_pd=" + DeviceLimits.MAX_PD + " PDs");
        }
        SoftPd pd = new SoftPd(this, nextPd.getAndIncrement());
        pds.add(pd);
        return pd;
    }

    @Override
    public CompletionQueue createCq(int entries) {
        return createCq(entries, null);
    }

    @Override
    public CompletionQueue createCq(int entries, CompletionChannel channel) {
        ensureOpen();
        if (cqs.size() >= DeviceLimits.MAX_CQ) {
            throw new ResourceLimitException("device " + name + " already has max_cq=" + DeviceLimits.MAX_CQ + " CQs");
        }
        SoftCq cq = new SoftCq(this, entries, channelOf(channel));
        cqs.add(cq);
        return cq;
    }

    /** The channel as this device's own, or null for none. */
    private SoftCompletionChannel channelOf(CompletionChannel channel) {
        if (channel == null) {
            return null;
        }
        if (!(channel instanceof SoftCompletionChannel ch) || ch.device() != this) {
            throw new InvalidAttributeException("the completion channel must be one of device " + name
                + " (created with its createCompletionChannel())");
        }
        return ch;
    }

    @Override
    public CompletionChannel createCompletionChannel() {
        ensureOpen();
        SoftCompletionChannel ch = new SoftCompletionChannel(this);
        channels.add(ch);
        return ch;
    }

    /**
     * Sets the listener of asynchronous events. PORT_ACTIVE, raised while the device opened, goes
     * to the first listener set (see {@link AsyncEvents}).
     */
    @Override
    public void asyncEventListener(AsyncEventListener listener) {
        ensureOpen();
        asyncEvents.listener(listener);
    }

    /** Raises an asynchronous event (IBTA 11.6.3); the listener runs on the I/O thread. Any thread. */
    void raiseAsyncEvent(AsyncEvent event) {
        asyncEvents.raise(event);
    }

    /** The protocol moved {@code qp} to ERR through a completion error (IBTA 10.3.1): QP_FATAL. I/O thread. */
    void qpEnteredError(SoftQp qp) {
        raiseAsyncEvent(new AsyncEvent(AsyncEventType.QP_FATAL, qp, 0));
    }

    synchronized SoftQp createQp(SoftPd pd, QpInitAttributes init) {
        ensureOpen();
        if (liveQps >= DeviceLimits.MAX_QP) {
            throw new ResourceLimitException("device " + name + " already has max_qp=" + DeviceLimits.MAX_QP + " QPs");
        }
        int qpn = qpns.allocate();
        SoftQp qp;
        try {
            qp = new SoftQp(this, pd, qpn, init);
        } catch (RuntimeException e) {
            qpns.release(qpn);
            throw e;
        }
        boolean sendAttached = false;
        try {
            qp.sendCq.attach(); // refused when a CQ is being destroyed meanwhile: the QP never comes to be
            sendAttached = true;
            qp.recvCq.attach();
        } catch (RuntimeException e) {
            if (sendAttached) {
                qp.sendCq.detach();
            }
            if (qp.srq != null) {
                qp.srq.detach();
            }
            memory.refund(qp.footprint);
            qpns.release(qpn);
            throw e;
        }
        qp.recvCq.takesReceives();
        io.call(() -> {
            engine.register(qp.transport);
            return null;
        });
        liveQps++;
        return qp;
    }

    /** The QPN allocator, so that a test can move it near its wrap. */
    QpnAllocator qpns() {
        return qpns;
    }

    /**
     * Attaches {@code qp} to {@code mgid} within the device's limits; the first QP of a group makes
     * the transport join it (the IP group on the device's sockets).
     */
    synchronized void attachMcast(SoftQp qp, Gid mgid) {
        ensureOpen();
        List<SoftQp> members = mcastGroups.get(mgid);
        if (members != null && members.contains(qp)) {
            return; // as rxe: attaching twice is attaching once
        }
        if (members == null && mcastGroups.size() >= DeviceLimits.MAX_MCAST_GRP) {
            throw new ResourceLimitException("device " + name + " already has max_mcast_grp="
                + DeviceLimits.MAX_MCAST_GRP + " multicast groups");
        }
        if (members != null && members.size() >= DeviceLimits.MAX_MCAST_QP_ATTACH) {
            throw new ResourceLimitException("group " + mgid + " already has max_mcast_qp_attach="
                + DeviceLimits.MAX_MCAST_QP_ATTACH + " QPs");
        }
        if (mcastAttachments >= DeviceLimits.MAX_TOTAL_MCAST_QP_ATTACH) {
            throw new ResourceLimitException("device " + name + " already has max_total_mcast_qp_attach="
                + DeviceLimits.MAX_TOTAL_MCAST_QP_ATTACH + " attachments");
        }
        if (members == null) {
            try {
                transport.joinGroup(mgid.toBytes());
            } catch (RuntimeException e) {
                throw new TransportException("device " + name + " cannot join multicast group " + mgid + ": "
                    + e.getMessage(), e);
            }
            members = new ArrayList<>();
            mcastGroups.put(mgid, members);
        }
        members.add(qp);
        mcastAttachments++;
        publishGroup(mgid, members);
    }

    /** Detaches {@code qp} from {@code mgid}; the last QP of a group makes the transport leave it. */
    synchronized void detachMcast(SoftQp qp, Gid mgid) {
        List<SoftQp> members = mcastGroups.get(mgid);
        if (members == null || !members.remove(qp)) {
            throw new InvalidAttributeException("queue pair 0x" + Integer.toHexString(qp.qpn)
                + " is not attached to multicast group " + mgid);
        }
        mcastAttachments--;
        publishGroup(mgid, members);
        if (members.isEmpty()) {
            mcastGroups.remove(mgid);
            if (!closed) {
                transport.leaveGroup(mgid.toBytes());
            }
        }
    }

    /** Hands the group's QPs to the engine, which delivers to them from the next packet on. */
    private void publishGroup(Gid mgid, List<SoftQp> members) {
        QpTransport[] array = members.isEmpty() ? MulticastGroups.none() : new QpTransport[members.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = members.get(i).transport;
        }
        byte[] bytes = mgid.toBytes();
        io.call(() -> {
            engine.multicast().set(bytes, array);
            return null;
        });
    }

    synchronized void destroyQp(SoftQp qp) {
        for (Gid mgid : new ArrayList<>(mcastGroups.keySet())) {
            if (mcastGroups.get(mgid).contains(qp)) {
                detachMcast(qp, mgid); // as rxe_drop_all_mcast_groups
            }
        }
        try {
            io.call(() -> {
                engine.unregister(qp.transport);
                qp.transport.qp.state = QpState.RESET; // a queued run of its requester now does nothing
                return null;
            });
        } finally {
            qpns.release(qp.qpn);
            liveQps--;
            memory.refund(qp.footprint);
        }
    }

    void pdClosed(SoftPd pd) {
        pds.remove(pd);
    }

    void cqClosed(SoftCq cq) {
        cqs.remove(cq);
        memory.refund(cq.footprint);
    }

    void channelClosed(SoftCompletionChannel channel) {
        channels.remove(channel);
    }

    void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("device " + name + " is closed");
        }
    }

    /**
     * Runs {@code hook} when the device closes. Any thread.
     *
     * @param hook what to run
     */
    public void onClose(Runnable hook) {
        closeHooks.add(hook);
    }

    /**
     * The port's active MTU: the largest path MTU a QP may use.
     *
     * @return the active MTU
     */
    public Mtu portActiveMtu() {
        return activeMtu;
    }

    @Override
    public Map<String, Long> counters() {
        return counters.snapshot();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (!pds.isEmpty() || !cqs.isEmpty() || !channels.isEmpty()) {
            throw new ResourceBusyException("device " + name + " still has " + pds.size() + " protection domain(s), "
                + cqs.size() + " completion queue(s) and " + channels.size()
                + " completion channel(s); close them first");
        }
        closed = true;
        if (LOG.isDebugEnabled()) {
            Map<String, Long> nonZero = new LinkedHashMap<>();
            counters.snapshot().forEach((k, v) -> {
                if (v != 0) {
                    nonZero.put(k, v);
                }
            });
            LOG.debug("device {} closes; its counters that are not 0: {}", name, nonZero);
        }
        // Every hook runs and the transport closes whatever one of them throws (a caller interrupted
        // while it closes, say): a device left half closed would keep its socket bound and stay
        // registered with the RDMA CM, and take the address of every later device of the JVM.
        RuntimeException failure = null;
        for (Runnable hook : closeHooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                failure = add(failure, e);
            }
        }
        // The port goes down with the device; delivered before the I/O thread stops.
        try {
            io.call(() -> {
                raiseAsyncEvent(new AsyncEvent(AsyncEventType.PORT_ERR, null, 1));
                return null;
            });
        } catch (RuntimeException e) {
            failure = add(failure, e);
        } finally {
            transport.close();
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
