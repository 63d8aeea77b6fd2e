package io.jroce.rnic;

import java.nio.file.Path;
import java.util.List;

/**
 * Every {@code jroce.*} system property, its default and its meaning, in one place (as Aeron's
 * {@code Configuration} lists its driver's). Nothing else reads a {@code jroce.*} property: code
 * asks the accessor here, so a property has one name, one default and one parser. A property set
 * to something its parser does not take is refused with an {@link IllegalArgumentException} that
 * names it, rather than read as its default. docs/configuration.md is the same table for users,
 * kept identical by a test.
 *
 * <p>A property changes a default only: an explicit builder call (e.g.
 * {@link SoftRnic.Builder#gso(boolean)}) wins over it.
 */
public final class Configuration {
    /** {@value}: UDP segmentation offload on send (see docs/udp-transport.md). */
    public static final String GSO_PROP_NAME = "jroce.gso";
    /** The default of {@link #GSO_PROP_NAME}: on. */
    public static final boolean GSO_DEFAULT = true;

    /** {@value}: UDP receive offload (see docs/udp-transport.md). */
    public static final String GRO_PROP_NAME = "jroce.gro";
    /** The default of {@link #GRO_PROP_NAME}: on. */
    public static final boolean GRO_DEFAULT = true;

    /** {@value}: warm the data path once per JVM before the first device on UDP opens ({@link DataPathWarmUp}). */
    public static final String WARM_UP_PROP_NAME = "jroce.warmUp";
    /** The default of {@link #WARM_UP_PROP_NAME}: on. */
    public static final boolean WARM_UP_DEFAULT = true;

    /** {@value}: keep the I/O thread awake while the application busy-polls a receive CQ. */
    public static final String BUSY_POLL_PROP_NAME = "jroce.busyPoll";
    /** The default of {@link #BUSY_POLL_PROP_NAME}: off. */
    public static final boolean BUSY_POLL_DEFAULT = false;
    /** The perftest twins' default for {@link #BUSY_POLL_PROP_NAME}: they spin as perftest does. */
    public static final boolean PERFTEST_BUSY_POLL_DEFAULT = true;

    /** {@value}: which thread does a device's work, {@code eventLoop} or {@code invoker} ({@link ProgressMode}). */
    public static final String PROGRESS_PROP_NAME = "jroce.progress";
    /** The default of {@link #PROGRESS_PROP_NAME}: the device's own I/O thread. */
    public static final ProgressMode PROGRESS_DEFAULT = ProgressMode.EVENT_LOOP;

    /**
     * {@value}: in the invoker mode, microseconds after an application thread last progressed a
     * device (polled, posted, called progress) that the device's fallback thread takes it over.
     */
    public static final String INVOKER_FALLBACK_AFTER_PROP_NAME = "jroce.invoker.fallbackAfterUs";
    /** The default of {@link #INVOKER_FALLBACK_AFTER_PROP_NAME}: 1 ms. */
    public static final int INVOKER_FALLBACK_AFTER_DEFAULT_US = 1_000;
    /**
     * The perftest twins' default for {@link #INVOKER_FALLBACK_AFTER_PROP_NAME}: 50 ms. They poll
     * without pause, so the window matters for its wake-ups, each of which takes a core from a
     * spinning thread on a small machine and puts a round trip of some 15 us into the latency tail
     * (docs/benchmarks.md), and for what arrives after a twin stopped polling (the end of a -D run),
     * which waits for the fallback thread up to one window: shorter than the 67 ms ACK timeout of
     * perftest's default -u 14, so that a peer does not retransmit for want of that thread.
     */
    public static final int PERFTEST_INVOKER_FALLBACK_AFTER_DEFAULT_US = 50_000;

    /**
     * {@value}: in the invoker mode, microseconds the fallback thread goes on polling a device after
     * a round that found nothing, before it sleeps on the sockets.
     */
    public static final String INVOKER_FALLBACK_SPIN_PROP_NAME = "jroce.invoker.fallbackSpinUs";
    /** The default of {@link #INVOKER_FALLBACK_SPIN_PROP_NAME}: 0, it sleeps at once. */
    public static final int INVOKER_FALLBACK_SPIN_DEFAULT_US = 0;
    /**
     * The perftest twins' default for {@link #INVOKER_FALLBACK_SPIN_PROP_NAME}: 200 us. The server of
     * read_lat or atomic_lat never polls (its requests are served by the fallback thread), and a
     * wake-up per request cost more than the request (docs/benchmarks.md).
     */
    public static final int PERFTEST_INVOKER_FALLBACK_SPIN_DEFAULT_US = 200;

    /** {@value}: empty CQ polls a perftest twin spins before it starts yielding. */
    public static final String PERFTEST_SPINS_PROP_NAME = "jroce.perftest.spins";
    /** The default of {@link #PERFTEST_SPINS_PROP_NAME}. */
    public static final int PERFTEST_SPINS_DEFAULT = 64;

    /** {@value}: yields of a perftest twin's poller before it parks briefly. */
    public static final String PERFTEST_YIELDS_PROP_NAME = "jroce.perftest.yields";
    /** The default of {@link #PERFTEST_YIELDS_PROP_NAME}. */
    public static final int PERFTEST_YIELDS_DEFAULT = 2_000;

    /**
     * {@value}: the heap in bytes (or with a k, m or g suffix) a device's queues may take (see
     * {@link SoftRnic.Builder#memoryBudget(long)}). Unset: {@link #MEMORY_BUDGET_HEAP_DIVISOR}th
     * of the JVM's maximum heap, leaving the rest to the application: the queues are preallocated,
     * so a budget near the whole heap would still let them starve everything else.
     */
    public static final String MEMORY_BUDGET_PROP_NAME = "jroce.memoryBudget";
    /** Without {@link #MEMORY_BUDGET_PROP_NAME}, the budget is the maximum heap divided by this. */
    public static final int MEMORY_BUDGET_HEAP_DIVISOR = 2;

    /**
     * {@value}: a directory where every device opened without an explicit event log records one,
     * as {@code NAME-PID-N.jsonseq} (docs/event-log.md).
     */
    public static final String EVENT_LOG_DIR_PROP_NAME = "jroce.eventLogDir";

    /** {@value}: whether an open device appears in the platform MBean server with its counters. */
    public static final String JMX_PROP_NAME = "jroce.jmx";
    /** The default of {@link #JMX_PROP_NAME}: on. */
    public static final boolean JMX_DEFAULT = true;

    /** {@value} (test suite): replay this one seed of the seeded fabric tests. */
    public static final String SEED_PROP_NAME = "jroce.seed";

    /** {@value} (test suite): how many seeds the seeded fabric tests run. */
    public static final String SEEDS_PROP_NAME = "jroce.seeds";
    /** The default of {@link #SEEDS_PROP_NAME}. */
    public static final int SEEDS_DEFAULT = 200;

    /** {@value} (test suite): the first seed of the seeded fabric tests. */
    public static final String SEED_BASE_PROP_NAME = "jroce.seedBase";
    /** The default of {@link #SEED_BASE_PROP_NAME}. */
    public static final long SEED_BASE_DEFAULT = 1;

    /** {@value} (test suite): packets the simulated fabric's trace keeps for a failure report. */
    public static final String TRACE_CAPACITY_PROP_NAME = "jroce.traceCapacity";
    /** The default of {@link #TRACE_CAPACITY_PROP_NAME}. */
    public static final int TRACE_CAPACITY_DEFAULT = 16_384;

    /** {@value} (test suite): print the packet trace of passing seeded runs too. */
    public static final String DUMP_TRACE_PROP_NAME = "jroce.dumpTrace";
    /** The default of {@link #DUMP_TRACE_PROP_NAME}: off. */
    public static final boolean DUMP_TRACE_DEFAULT = false;

    /**
     * {@value}: the device file the tools' {@code -d} looks names up in, before the JROCE_DEVICES
     * environment variable and ~/.config/jroce/devices (read by the tools' DeviceRegistry).
     */
    public static final String DEVICES_PROP_NAME = "jroce.devices";

    /** One property as docs/configuration.md lists it. */
    public record Property(String name, String defaultValue, String meaning) {
    }

    /** Every property, in the order of docs/configuration.md. */
    public static final List<Property> ALL = List.of(
        new Property(GSO_PROP_NAME, String.valueOf(GSO_DEFAULT),
            "UDP segmentation offload: a run of same-size packets to one peer leaves as one GSO send"),
        new Property(GRO_PROP_NAME, String.valueOf(GRO_DEFAULT),
            "UDP receive offload: a coalesced run of datagrams is read in one system call"),
        new Property(WARM_UP_PROP_NAME, String.valueOf(WARM_UP_DEFAULT),
            "the first device on UDP a JVM opens first runs a SEND, WRITE, READ and atomic between two devices on a private"
            + " simulated fabric, then sends a few datagrams to itself through a private socket on 127.0.0.1 (once per"
            + " progress mode), so that the application's first operation does not race class loading against its ACK"
            + " timer (adds about 100 ms to that open; docs/benchmarks.md, `jroce cold_start`)"),
        new Property(BUSY_POLL_PROP_NAME, BUSY_POLL_DEFAULT + " (perftest twins: " + PERFTEST_BUSY_POLL_DEFAULT + ")",
            "the I/O thread polls its sockets without sleeping while the application polls an empty receive CQ"),
        new Property(PROGRESS_PROP_NAME, "eventLoop",
            "which thread does a device's work: its own I/O thread (eventLoop) or the application's polls and posts "
                + "(invoker, with a fallback thread; Linux epoll only)"),
        new Property(INVOKER_FALLBACK_AFTER_PROP_NAME, INVOKER_FALLBACK_AFTER_DEFAULT_US + " (perftest twins: "
                + PERFTEST_INVOKER_FALLBACK_AFTER_DEFAULT_US + ")",
            "invoker mode: microseconds after an application thread last polled, posted or progressed a device that "
                + "its fallback thread takes over"),
        new Property(INVOKER_FALLBACK_SPIN_PROP_NAME, INVOKER_FALLBACK_SPIN_DEFAULT_US + " (perftest twins: "
                + PERFTEST_INVOKER_FALLBACK_SPIN_DEFAULT_US + ")",
            "invoker mode: microseconds the fallback thread goes on polling a device after a round that found nothing, "
                + "before it sleeps"),
        new Property(PERFTEST_SPINS_PROP_NAME, String.valueOf(PERFTEST_SPINS_DEFAULT),
            "empty CQ polls a perftest twin spins before it yields"),
        new Property(PERFTEST_YIELDS_PROP_NAME, String.valueOf(PERFTEST_YIELDS_DEFAULT),
            "yields of a perftest twin's poller before it parks"),
        new Property(MEMORY_BUDGET_PROP_NAME, "1/" + MEMORY_BUDGET_HEAP_DIVISOR + " of the maximum heap",
            "heap bytes (k, m, g suffixes) a device's QP, SRQ and CQ queues may take; creation beyond fails with "
                + "ResourceLimitException"),
        new Property(EVENT_LOG_DIR_PROP_NAME, "unset (no event log)",
            "a directory where each device records its event log, NAME-PID-N.jsonseq: every packet and protocol event"),
        new Property(JMX_PROP_NAME, String.valueOf(JMX_DEFAULT),
            "an open device is an MBean, io.jroce:type=RdmaDevice,name=NAME, with its counters as attributes"),
        new Property(DEVICES_PROP_NAME, "unset (then JROCE_DEVICES, then ~/.config/jroce/devices)",
            "the file that defines the jroce devices every tool's -d names (see Devices below)"),
        new Property(SEED_PROP_NAME, "unset", "test suite: replay this one seed of the seeded fabric tests"),
        new Property(SEEDS_PROP_NAME, String.valueOf(SEEDS_DEFAULT), "test suite: seeds the seeded fabric tests run"),
        new Property(SEED_BASE_PROP_NAME, String.valueOf(SEED_BASE_DEFAULT), "test suite: first seed of the seeded fabric tests"),
        new Property(TRACE_CAPACITY_PROP_NAME, String.valueOf(TRACE_CAPACITY_DEFAULT),
            "test suite: packets the fabric's trace keeps for a failure report"),
        new Property(DUMP_TRACE_PROP_NAME, String.valueOf(DUMP_TRACE_DEFAULT),
            "test suite: print the packet trace of passing seeded runs too"));

    private Configuration() {
    }

    /**
     * Whether devices send with UDP GSO by default.
     *
     * @return {@link #GSO_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean gso() {
        return bool(GSO_PROP_NAME, GSO_DEFAULT);
    }

    /**
     * Whether the first device on UDP warms the data path first ({@value #WARM_UP_PROP_NAME}).
     *
     * @return the property's value, or its default
     */
    public static boolean warmUp() {
        return bool(WARM_UP_PROP_NAME, WARM_UP_DEFAULT);
    }

    /**
     * Where devices record their event logs by default.
     *
     * @return {@link #EVENT_LOG_DIR_PROP_NAME} as a path, or null when it is not set
     */
    public static Path eventLogDir() {
        String v = value(EVENT_LOG_DIR_PROP_NAME);
        return v == null ? null : Path.of(v);
    }

    /**
     * Whether an open device registers its JMX MBean by default.
     *
     * @return {@link #JMX_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean jmx() {
        return bool(JMX_PROP_NAME, JMX_DEFAULT);
    }

    /**
     * Whether devices receive with UDP GRO by default.
     *
     * @return {@link #GRO_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean gro() {
        return bool(GRO_PROP_NAME, GRO_DEFAULT);
    }

    /**
     * {@link #BUSY_POLL_PROP_NAME}, or {@code toolDefault} when it is not set (a tool's own default).
     *
     * @param toolDefault the default of the calling tool
     * @return the property's value, or {@code toolDefault}
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean busyPoll(boolean toolDefault) {
        return bool(BUSY_POLL_PROP_NAME, toolDefault);
    }

    /**
     * Whether a device's I/O thread busy-polls while the application does, by default.
     *
     * @return {@link #BUSY_POLL_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean busyPoll() {
        return busyPoll(BUSY_POLL_DEFAULT);
    }

    /**
     * {@link #PROGRESS_PROP_NAME}: {@code eventLoop} or {@code invoker} (case ignored).
     *
     * @return the mode the property names, or {@link #PROGRESS_DEFAULT}
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static ProgressMode progressMode() {
        return progressMode(PROGRESS_DEFAULT);
    }

    /**
     * {@link #PROGRESS_PROP_NAME}, or {@code toolDefault} when it is not set (a tool's own default).
     *
     * @param toolDefault the default of the calling tool
     * @return the mode the property names, or {@code toolDefault}
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static ProgressMode progressMode(ProgressMode toolDefault) {
        String v = value(PROGRESS_PROP_NAME);
        if (v == null) {
            return toolDefault;
        }
        if (v.equalsIgnoreCase("eventLoop")) {
            return ProgressMode.EVENT_LOOP;
        }
        if (v.equalsIgnoreCase("invoker")) {
            return ProgressMode.INVOKER;
        }
        throw new IllegalArgumentException("system property " + PROGRESS_PROP_NAME + " must be eventLoop or invoker, got '"
            + v + "'");
    }

    /**
     * How long the invoker mode's fallback thread waits before it takes a device over.
     *
     * @return {@link #INVOKER_FALLBACK_AFTER_PROP_NAME} in microseconds, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int invokerFallbackAfterUs() {
        return invokerFallbackAfterUs(INVOKER_FALLBACK_AFTER_DEFAULT_US);
    }

    /**
     * {@link #INVOKER_FALLBACK_AFTER_PROP_NAME}, or {@code toolDefault} when it is not set (a tool's own default).
     *
     * @param toolDefault the default of the calling tool, in microseconds
     * @return the property's value in microseconds, or {@code toolDefault}
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int invokerFallbackAfterUs(int toolDefault) {
        return nonNegativeInt(INVOKER_FALLBACK_AFTER_PROP_NAME, toolDefault);
    }

    /**
     * {@link #INVOKER_FALLBACK_SPIN_PROP_NAME}, or {@code toolDefault} when it is not set (a tool's own default).
     *
     * @param toolDefault the default of the calling tool, in microseconds
     * @return the property's value in microseconds, or {@code toolDefault}
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int invokerFallbackSpinUs(int toolDefault) {
        return nonNegativeInt(INVOKER_FALLBACK_SPIN_PROP_NAME, toolDefault);
    }

    /**
     * How many empty polls a perftest twin spins before it yields.
     *
     * @return {@link #PERFTEST_SPINS_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int perftestSpins() {
        return nonNegativeInt(PERFTEST_SPINS_PROP_NAME, PERFTEST_SPINS_DEFAULT);
    }

    /**
     * How many times a perftest twin's poller yields before it parks.
     *
     * @return {@link #PERFTEST_YIELDS_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int perftestYields() {
        return nonNegativeInt(PERFTEST_YIELDS_PROP_NAME, PERFTEST_YIELDS_DEFAULT);
    }

    /**
     * {@link #MEMORY_BUDGET_PROP_NAME}, or the default share of {@link Runtime#maxMemory()}.
     *
     * @return the budget in bytes
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static long memoryBudget() {
        String v = value(MEMORY_BUDGET_PROP_NAME);
        return v == null ? Runtime.getRuntime().maxMemory() / MEMORY_BUDGET_HEAP_DIVISOR : bytes(MEMORY_BUDGET_PROP_NAME, v);
    }

    /** A positive byte count, optionally with a k, m or g suffix (powers of 1024). */
    static long bytes(String name, String v) {
        char last = Character.toLowerCase(v.charAt(v.length() - 1));
        int shift = switch (last) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        String digits = shift == 0 ? v : v.substring(0, v.length() - 1).trim();
        try {
            long n = Long.parseLong(digits);
            if (n > 0 && n <= Long.MAX_VALUE >> shift) {
                return n << shift;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("system property " + name + " must be a positive number of bytes "
            + "(optionally with a k, m or g suffix), got '" + v + "'");
    }

    /**
     * The one seed to replay, or null when {@link #SEED_PROP_NAME} is not set.
     *
     * @return the seed, or null
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static Long seed() {
        String v = value(SEED_PROP_NAME);
        return v == null ? null : parseLong(SEED_PROP_NAME, v);
    }

    /**
     * How many seeds the seeded fabric tests run.
     *
     * @return {@link #SEEDS_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int seeds() {
        return nonNegativeInt(SEEDS_PROP_NAME, SEEDS_DEFAULT);
    }

    /**
     * The first seed of the seeded fabric tests.
     *
     * @return {@link #SEED_BASE_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static long seedBase() {
        String v = value(SEED_BASE_PROP_NAME);
        return v == null ? SEED_BASE_DEFAULT : parseLong(SEED_BASE_PROP_NAME, v);
    }

    /**
     * How many packets the simulated fabric's trace keeps.
     *
     * @return {@link #TRACE_CAPACITY_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static int traceCapacity() {
        return nonNegativeInt(TRACE_CAPACITY_PROP_NAME, TRACE_CAPACITY_DEFAULT);
    }

    /**
     * Whether passing seeded runs print their packet trace too.
     *
     * @return {@link #DUMP_TRACE_PROP_NAME}, or its default
     * @throws IllegalArgumentException the property is set to something it does not take
     */
    public static boolean dumpTrace() {
        return bool(DUMP_TRACE_PROP_NAME, DUMP_TRACE_DEFAULT);
    }

    private static String value(String name) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    static boolean bool(String name, boolean defaultValue) {
        String v = value(name);
        if (v == null) {
            return defaultValue;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("system property " + name + " must be true or false, got '" + v + "'");
    }

    static int nonNegativeInt(String name, int defaultValue) {
        String v = value(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            int n = Integer.decode(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("system property " + name + " must be a non-negative integer, got '" + v + "'");
    }

    private static long parseLong(String name, String v) {
        try {
            return Long.decode(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + " must be an integer, got '" + v + "'", e);
        }
    }
}
