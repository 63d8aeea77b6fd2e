package io.jroce.rnic;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.slf4j.LoggerFactory;

import io.jroce.rnic.cm.api.CmDevices;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.rnic.events.EventLog;
import io.jroce.rnic.events.EventLogProtocolEvents;
import io.jroce.rnic.events.EventLoggingTransport;
import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.rnic.jmx.DeviceMBean;
import io.jroce.rnic.jmx.DeviceMBeans;
import io.jroce.rnic.runtime.EventLoopIoContext;
import io.jroce.rnic.runtime.FabricIoContext;
import io.jroce.rnic.runtime.DelayedSends;
import io.jroce.rnic.runtime.InvokerIoContext;
import io.jroce.rnic.runtime.OwnedTransport;
import io.jroce.stack.fabric.FabricEndpoint;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultInjectingPolledTransport;
import io.jroce.stack.fault.FaultInjectingTransport;
import io.jroce.stack.fault.FaultListener;
import io.jroce.stack.fault.FaultPolicy;
import io.jroce.stack.fault.PacketTrace;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.PolledTransport;
import io.jroce.stack.transport.PollingHint;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.udp.DirectUdpTransport;
import io.jroce.stack.udp.UdpTransport;
import io.jroce.stack.udp.UdpTransportException;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.AddressInUseException;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.TransportException;

/**
 * Opens jroce devices: a software RNIC whose GIDs are the given IP addresses, on real UDP sockets
 * ({@link Builder#open()}) or on a {@link SimulatedFabric} ({@link Builder#openOn}).
 *
 * <pre>{@code
 * try (RdmaDevice dev = SoftRnic.builder().address("127.0.0.1").open()) { ... }
 * }</pre>
 */
public final class SoftRnic {
    /** How often the RNIC's timers are checked on a real clock. */
    static final long TIMER_TICK_US = 500;
    /**
     * SO_RCVBUF/SO_SNDBUF asked for: a window of 128 packets of 4 KiB must fit, or the kernel drops
     * them on loopback. The kernel caps it at net.core.rmem_max (docs/udp-transport.md).
     */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private SoftRnic() {
    }

    /**
     * Starts describing a device to open.
     *
     * @return a builder with the defaults: name jroce0, UDP port 4791, active MTU 4096, no address yet
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The progress mode of a program that busy-polls its CQs (the perftest and pingpong twins, as
     * their originals spin): {@link ProgressMode#INVOKER} where native epoll is available, else
     * {@link ProgressMode#EVENT_LOOP}.
     *
     * @return the mode such a program should ask for
     */
    public static ProgressMode busyPollingDefault() {
        return io.netty.channel.epoll.Epoll.isAvailable() ? ProgressMode.INVOKER : ProgressMode.EVENT_LOOP;
    }

    /**
     * What a device is opened with; every setter returns the builder, and {@code open...} opens the device.
     */
    public static final class Builder {
        /** Numbers the event logs that {@link Configuration#EVENT_LOG_DIR_PROP_NAME} names. */
        private static final AtomicInteger EVENT_LOGS = new AtomicInteger();
        private String name = "jroce0";
        private final List<String> addresses = new ArrayList<>();
        private int udpPort = AddressVector.ROCE_V2_PORT;
        private Mtu activeMtu = Mtu.MTU_4096;
        private FaultPolicy faults;
        private PacketTrace faultTrace;
        private Path pcap;
        private boolean gso = Configuration.gso();
        /** For {@link DataPathWarmUp}'s devices: no event log, whatever {@code jroce.eventLogDir} says. */
        private boolean noEventLog;
        private boolean gro = Configuration.gro();
        private boolean busyPoll = Configuration.busyPoll();
        private long memoryBudget = Configuration.memoryBudget();
        private ProtocolEvents protocolEvents;
        private boolean jmx = Configuration.jmx();
        private Path eventLogPath;
        private OutputStream eventLogStream;
        private ProgressMode progressMode = Configuration.progressMode();
        private long fallbackAfterNs = TimeUnit.MICROSECONDS.toNanos(Configuration.invokerFallbackAfterUs());
        private long fallbackSpinNs = TimeUnit.MICROSECONDS.toNanos(
            Configuration.invokerFallbackSpinUs(Configuration.INVOKER_FALLBACK_SPIN_DEFAULT_US));

        private Builder() {
        }

        /**
         * Device name; default {@code jroce0}.
         *
         * @param name the device's name, as {@link RdmaDevice#name()} returns it
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Arguments.notNull(name, "device name");
            return this;
        }

        /**
         * A local IP address (literal): it becomes a GID and gets its own UDP socket. Repeatable.
         *
         * @param ipLiteral an IPv4 or IPv6 address literal of this host
         * @return this builder
         * @throws InvalidAttributeException it is null or not an IP address literal
         */
        public Builder address(String ipLiteral) {
            Arguments.notNull(ipLiteral, "address");
            Gid.parse(ipLiteral); // fail early on a bad literal
            addresses.add(ipLiteral);
            return this;
        }

        /**
         * The UDP port every socket binds; default 4791.
         *
         * @param port 0..65535 (0: any free port)
         * @return this builder
         * @throws InvalidAttributeException the port is out of range
         */
        public Builder udpPort(int port) {
            if (port < 0 || port > 65535) {
                throw new InvalidAttributeException("UDP port must be 0..65535, got " + port);
            }
            this.udpPort = port;
            return this;
        }

        /**
         * The port's active MTU, the largest path MTU a QP may use; default 4096.
         *
         * @param mtu the active MTU
         * @return this builder
         */
        public Builder activeMtu(Mtu mtu) {
            this.activeMtu = Arguments.notNull(mtu, "active MTU");
            return this;
        }

        /**
         * Captures every packet the device sends and receives to {@code file}, as classic pcap
         * that Wireshark decodes as RoCEv2; for {@link #open()} only.
         *
         * @param file the capture file
         * @return this builder
         */
        public Builder pcap(Path file) {
            this.pcap = Arguments.notNull(file, "pcap file");
            return this;
        }

        /**
         * UDP segmentation offload for sending (on by default; {@code -Djroce.gso=false} turns the
         * default off): a run of same-size packets to one peer leaves as one GSO message. See
         * docs/udp-transport.md.
         *
         * @param enabled whether to send with GSO
         * @return this builder
         */
        public Builder gso(boolean enabled) {
            this.gso = enabled;
            return this;
        }

        /**
         * UDP receive offload (on by default; {@code -Djroce.gro=false} turns the default off):
         * reads a coalesced run of datagrams in one system call instead of recvmmsg batches of
         * single datagrams. See docs/udp-transport.md.
         *
         * @param enabled whether to receive with GRO
         * @return this builder
         */
        public Builder gro(boolean enabled) {
            this.gro = enabled;
            return this;
        }

        /**
         * Keeps the device's I/O thread awake while an application thread polls a CQ that takes
         * receive completions and finds it empty (off by default; {@code -Djroce.busyPoll=true}
         * turns the default on; the perftest twins turn it on, as perftest spins): the I/O thread
         * then polls its sockets without sleeping, yielding the CPU between polls, and takes the
         * application's next post without an eventfd wake-up. It costs a core while the
         * application busy-polls, which on a small machine slows everything else down (a QEMU
         * guest beside it, for one). See docs/benchmarks.md (SEND latency).
         *
         * @param enabled whether the I/O thread busy-polls
         * @return this builder
         */
        public Builder busyPoll(boolean enabled) {
            this.busyPoll = enabled;
            return this;
        }

        /**
         * The heap, in bytes, that the device's QP, SRQ and CQ queues may take together (every WQE
         * and completion slot is allocated when its queue is created): creating one beyond it fails
         * with a {@link io.jroce.verbs.ResourceLimitException} instead of an OutOfMemoryError.
         * Default: {@code -Djroce.memoryBudget}, else half of the JVM's maximum heap. The device's
         * advertised limits (max_qp, max_qp_wr, max_cqe, ...) stay rxe's; this budget may refuse
         * earlier, see docs/configuration.md.
         *
         * @param bytes the budget, positive
         * @return this builder
         * @throws InvalidAttributeException it is not positive
         */
        public Builder memoryBudget(long bytes) {
            if (bytes <= 0) {
                throw new InvalidAttributeException("memory budget must be positive, got " + bytes);
            }
            this.memoryBudget = bytes;
            return this;
        }

        /**
         * Who hears of the device's protocol events: QP state changes, NAKs sent and received,
         * retransmissions and their cause, RNR waits, drops with their reason. Default:
         * {@link ProtocolEvents#logging}, SLF4J debug lines under {@code io.jroce.rnic.protocol}.
         *
         * @param events the listener, called on the device's I/O thread
         * @return this builder
         */
        public Builder protocolEvents(ProtocolEvents events) {
            this.protocolEvents = Arguments.notNull(events, "protocol events");
            return this;
        }

        private ProtocolEvents events() {
            return protocolEvents != null ? protocolEvents : ProtocolEvents.logging(name);
        }

        /**
         * Whether the device appears in the platform MBean server while it is open, as
         * {@code io.jroce:type=RdmaDevice,name=NAME} with its counters as attributes (default
         * {@code -Djroce.jmx}, else on; docs/configuration.md, "JMX").
         *
         * @param on whether to register the device's MBean
         * @return this builder
         */
        public Builder jmx(boolean on) {
            this.jmx = on;
            return this;
        }

        /**
         * Records the device's event log in {@code file} (created or truncated when the device opens,
         * closed when it closes): every packet sent and received and the protocol events, as JSON text
         * sequences (docs/event-log.md). Off by default.
         *
         * @param file the log file
         * @return this builder
         */
        public Builder eventLog(Path file) {
            this.eventLogPath = Arguments.notNull(file, "event log file");
            this.eventLogStream = null;
            return this;
        }

        /**
         * Records the device's event log on {@code out}, which the device closes when it closes.
         *
         * @param out where the records go
         * @return this builder
         */
        public Builder eventLog(OutputStream out) {
            this.eventLogStream = Arguments.notNull(out, "event log stream");
            this.eventLogPath = null;
            return this;
        }

        /** The event log asked for, started; null when none was. */
        /** No event log even where {@code jroce.eventLogDir} asks for one (the warm-up's devices). */
        Builder withoutEventLog() {
            this.noEventLog = true;
            return this;
        }

        private EventLog openEventLog(List<Gid> gids, LongSupplier clock, boolean virtualTime) {
            if (noEventLog) {
                return null;
            }
            Path file = eventLogPath;
            Path dir = Configuration.eventLogDir();
            if (file == null && eventLogStream == null && dir != null) {
                file = dir.resolve(name + "-" + ProcessHandle.current().pid() + "-" + EVENT_LOGS.incrementAndGet() + ".jsonseq");
            }
            if (file == null && eventLogStream == null) {
                return null;
            }
            OutputStream out = eventLogStream;
            if (out == null) {
                try {
                    out = Files.newOutputStream(file);
                } catch (IOException e) {
                    throw new TransportException("cannot write the event log " + file + ": " + e, e);
                }
            }
            return new EventLog(out, clock, name, gids, virtualTime);
        }

        private static RoceTransport logged(RoceTransport transport, EventLog log) {
            return log == null ? transport : new EventLoggingTransport(transport, log);
        }

        /** The log marks the faults injected into the device's packets; without one, nobody hears them. */
        private static FaultListener faultListener(EventLog log) {
            return log == null ? FaultListener.NONE : log;
        }

        private ProtocolEvents events(EventLog log) {
            return log == null ? events() : new EventLogProtocolEvents(log, events());
        }

        /** The log closes with its device; a failure to write it is a warning, never a failed close. */
        private static SoftDevice closingLog(SoftDevice device, EventLog log) {
            if (log != null) {
                device.onClose(() -> closeLog(log));
            }
            return device;
        }

        private static void closeLog(EventLog log) {
            try {
                log.close();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(SoftRnic.class).warn("event log: {}", e.toString());
            }
        }

        /**
         * The device's MBean, registered while it is open when {@link #jmx} is on. A modular
         * application that did not resolve java.management (jroce's RNIC is an automatic module,
         * which declares no requires) cannot load the MBean's classes: the device opens without one.
         */
        private SoftDevice withMBean(SoftDevice device, Counters counters) {
            if (jmx) {
                try {
                    device.onClose(DeviceMBeans.register(name, new DeviceMBean(device, counters, activeMtu.bytes())));
                } catch (LinkageError e) {
                    LoggerFactory.getLogger(SoftRnic.class).warn("device {}: no JMX MBean (is the java.management "
                        + "module resolved?): {}", name, e.toString());
                }
            }
            return device;
        }

        /**
         * Which thread does the device's work (default {@code -Djroce.progress}, else
         * {@link ProgressMode#EVENT_LOOP}): its own I/O thread, or in {@link ProgressMode#INVOKER}
         * the application's threads as they poll, post and call {@link RdmaDevice#progress()},
         * with a fallback thread while none does. See docs/progress-modes.md.
         *
         * @param mode the progress mode
         * @return this builder
         */
        public Builder progressMode(ProgressMode mode) {
            this.progressMode = Arguments.notNull(mode, "progress mode");
            return this;
        }

        /**
         * In the invoker mode: how long after an application thread last polled, posted or called
         * {@link RdmaDevice#progress()} the device's fallback thread takes it over (default
         * {@code -Djroce.invoker.fallbackAfterUs}, else 1 ms). Shorter serves an application
         * that stops polling sooner; longer wakes the fallback thread less while it polls. It is
         * also the longest a post made while a thread polls waits for that thread's next call
         * before the fallback thread sends it (docs/progress-modes.md).
         *
         * @param duration the window, positive
         * @param unit its unit
         * @return this builder
         * @throws InvalidAttributeException the window is not positive
         */
        public Builder invokerFallbackAfter(long duration, TimeUnit unit) {
            Arguments.notNull(unit, "time unit");
            if (duration <= 0) {
                throw new InvalidAttributeException("the fallback window must be positive, got " + duration + " " + unit);
            }
            this.fallbackAfterNs = unit.toNanos(duration);
            return this;
        }

        /**
         * In the invoker mode: how long the fallback thread goes on polling the device after a round
         * that found nothing, before it sleeps on the sockets (default
         * {@code -Djroce.invoker.fallbackSpinUs}, else 0: it sleeps at once). Longer serves a passive
         * side whose requests follow each other closely (a READ target) without waking a sleeping
         * thread for each, at the price of a core busy for that long after each burst.
         *
         * @param duration the spin, 0 or more
         * @param unit its unit
         * @return this builder
         * @throws InvalidAttributeException the spin is negative
         */
        public Builder invokerFallbackSpin(long duration, TimeUnit unit) {
            Arguments.notNull(unit, "time unit");
            if (duration < 0) {
                throw new InvalidAttributeException("the fallback spin must not be negative, got " + duration + " " + unit);
            }
            this.fallbackSpinNs = unit.toNanos(duration);
            return this;
        }

        /**
         * Injects faults into what this device sends over UDP (loss, duplication, reordering, delay,
         * scripted rules), the same {@link FaultPolicy} the simulated fabric uses; {@code trace}
         * (may be null) records each packet's fate. For tests of RC recovery over real sockets.
         *
         * @param policy the faults, or null for none
         * @param trace where packets' fates are recorded, or null for a trace of its own
         * @return this builder
         */
        public Builder faults(FaultPolicy policy, PacketTrace trace) {
            this.faults = policy;
            this.faultTrace = trace;
            return this;
        }

        private List<Gid> gids() {
            if (addresses.isEmpty()) {
                throw new InvalidAttributeException("a device needs at least one address(...)");
            }
            List<Gid> gids = new ArrayList<>();
            for (String a : addresses) {
                gids.add(Gid.parse(a));
            }
            return gids;
        }

        /**
         * Opens the device on UDP sockets (Netty epoll where available).
         *
         * @throws AddressInUseException when another socket holds the UDP port on one of the addresses
         * @throws TransportException when a socket cannot be opened or bound otherwise (an address not
         *     local, a capture file that cannot be written)
         * @return the open device, the caller's to close
         */
        public RdmaDevice open() {
            DataPathWarmUp.once(progressMode); // the first device of the JVM: its first operation must not race class loading
            if (progressMode == ProgressMode.INVOKER) {
                return openInvoker();
            }
            List<Gid> gids = gids();
            Counters counters = new Counters();
            UdpTransport transport;
            PollingHint hint = busyPoll ? new PollingHint() : null;
            try {
                UdpTransport.Builder tb = UdpTransport.builder().localAddresses(addresses).port(udpPort)
                    .counters(counters).socketBufferSize(SOCKET_BUFFER_BYTES).gso(gso).gro(gro).pollingHint(hint);
                if (pcap != null) {
                    tb.pcap(pcap);
                }
                transport = tb.build();
            } catch (UdpTransportException e) {
                throw openFailure("", e);
            }
            EventLoopIoContext io = new EventLoopIoContext(transport.eventLoop());
            EventLog log;
            try {
                log = openEventLog(gids, System::nanoTime, false);
            } catch (RuntimeException e) {
                transport.close();
                throw e;
            }
            RoceTransport wire = transport;
            if (faults != null) {
                wire = new FaultInjectingTransport(transport, faults, faultTrace != null ? faultTrace : new PacketTrace(1024),
                    System::nanoTime, (ns, task) -> transport.eventLoop().schedule(task, ns, TimeUnit.NANOSECONDS),
                    faultListener(log));
            }
            RoceTransport finalWire = logged(wire, log);
            SoftDevice device;
            try {
                // The call waits through an interrupt (a cancelled task): the transport's thread and
                // sockets are the device's to close, never left behind bound with nobody to close them.
                device = io.call(() -> SoftDevice.open(name, gids, activeMtu, finalWire, io, counters,
                    memoryBudget, events(log)));
            } catch (RuntimeException e) {
                transport.close();
                if (log != null) {
                    closeLog(log);
                }
                throw e;
            }
            closingLog(device, log);
            device.pollingHint(hint);
            transport.eventLoop().scheduleAtFixedRate(device::onTimer, TIMER_TICK_US, TIMER_TICK_US, TimeUnit.MICROSECONDS);
            // The RDMA CM finds a device by its addresses; its peers' RoCE port is the one it listens on.
            CmDevices.register(device, udpPort == 0 ? AddressVector.ROCE_V2_PORT : udpPort);
            return withMBean(device, counters);
        }

        /**
         * Why the sockets could not be opened, as the verbs API's exception: {@link AddressInUseException}
         * when another socket holds the port, else {@link TransportException}.
         */
        private TransportException openFailure(String mode, UdpTransportException e) {
            String message = "cannot open device " + name + " on " + addresses + " port " + udpPort + mode + ": "
                + e.getMessage();
            return e.addressInUse() ? new AddressInUseException(message, e) : new TransportException(message, e);
        }

        /** The invoker mode on UDP: sockets with no thread of their own ({@link DirectUdpTransport}). */
        private RdmaDevice openInvoker() {
            gids(); // refuse a builder without addresses before opening sockets
            Counters counters = new Counters();
            DirectUdpTransport sockets;
            try {
                DirectUdpTransport.Builder tb = DirectUdpTransport.builder().localAddresses(addresses).port(udpPort)
                    .counters(counters).socketBufferSize(SOCKET_BUFFER_BYTES).gso(gso).gro(gro);
                if (pcap != null) {
                    tb.pcap(pcap);
                }
                sockets = tb.build();
            } catch (UdpTransportException e) {
                throw openFailure(" in the invoker progress mode", e);
            }
            EventLog log = openInvokerEventLog(sockets);
            PolledTransport transport = sockets;
            DelayedSends delayed = null;
            if (faults != null) {
                delayed = new DelayedSends(name);
                transport = new FaultInjectingPolledTransport(new FaultInjectingTransport(sockets, faults,
                    faultTrace != null ? faultTrace : new PacketTrace(1024), System::nanoTime, delayed,
                    faultListener(log)), sockets);
            }
            return openInvoker(transport, counters, sockets.port(), delayed, log);
        }

        /** The invoker mode's event log asked for, or null; {@code transport} is closed when it cannot start. */
        private EventLog openInvokerEventLog(RoceTransport transport) {
            try {
                return openEventLog(gids(), System::nanoTime, false);
            } catch (RuntimeException e) {
                transport.close();
                throw e;
            }
        }

        /**
         * Opens the device in the {@link ProgressMode#INVOKER invoker mode} on a transport built by
         * the caller (an in-memory pipe in tests, for one); the device closes it. The transport
         * must count its drops in {@code counters}.
         *
         * @param transport the transport the device sends and receives on
         * @param counters the device's counters, which the transport also counts its drops in
         * @return the open device, the caller's to close
         */
        public RdmaDevice open(PolledTransport transport, Counters counters) {
            Arguments.notNull(transport, "transport");
            Arguments.notNull(counters, "counters");
            return openInvoker(transport, counters, udpPort == 0 ? AddressVector.ROCE_V2_PORT : udpPort, null,
                openInvokerEventLog(transport));
        }

        /** Opens the device on {@code transport}, its log (null for none) already started. */
        private RdmaDevice openInvoker(PolledTransport transport, Counters counters, int cmPort, DelayedSends delayed,
                                       EventLog log) {
            List<Gid> gids = gids(); // the log's opening checked them
            InvokerIoContext io = new InvokerIoContext(TimeUnit.MICROSECONDS.toNanos(TIMER_TICK_US), transport,
                fallbackAfterNs, fallbackSpinNs);
            if (delayed != null) {
                delayed.runAs(io::execute);
            }
            SoftDevice device;
            try {
                device = SoftDevice.open(name, gids, activeMtu, logged(new OwnedTransport(transport, io), log), io,
                    counters, memoryBudget, events(log));
            } catch (RuntimeException e) {
                transport.close();
                if (delayed != null) {
                    delayed.close();
                }
                if (log != null) {
                    closeLog(log);
                }
                throw e;
            }
            closingLog(device, log);
            io.start(device::onTimer, name);
            if (delayed != null) {
                device.onClose(delayed::close);
            }
            CmDevices.register(device, cmPort == 0 ? AddressVector.ROCE_V2_PORT : cmPort);
            return withMBean(device, counters);
        }

        /**
         * Opens the device on a simulated fabric, driven by the thread that runs the fabric.
         *
         * @param fabric the fabric; the builder must have exactly one address
         * @return the open device, the caller's to close
         * @throws InvalidAttributeException the builder has not exactly one address, or asks for a pcap capture
         */
        public RdmaDevice openOn(SimulatedFabric fabric) {
            List<Gid> gids = gids();
            if (addresses.size() != 1) {
                throw new InvalidAttributeException("a device on the simulated fabric has exactly one address");
            }
            if (pcap != null) {
                throw new InvalidAttributeException("pcap capture is for devices on UDP (open()), not on a simulated fabric");
            }
            Counters counters = new Counters();
            EventLog log = openEventLog(gids, fabric::nowNs, true);
            FabricEndpoint endpoint = fabric.attach(addresses.get(0), udpPort, counters, faultListener(log));
            SoftDevice device = closingLog(SoftDevice.open(name, gids, activeMtu, logged(endpoint, log),
                new FabricIoContext(fabric), counters, memoryBudget, events(log)), log);
            fabric.addTicker(device::onTimer);
            return withMBean(device, counters);
        }
    }
}
