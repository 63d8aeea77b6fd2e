package io.jroce.verbs;

import java.util.List;
import java.util.Map;

/** An open RDMA device and its context (ibv_context): the root of every other resource. */
public interface RdmaDevice extends AutoCloseable {
    /** Device name, e.g. {@code jroce0}. */
    String name();

    /** The GID table of port 1 (ibv_query_gid): one entry per configured IP address. */
    List<Gid> gids();

    DeviceAttributes queryDevice();

    PortAttributes queryPort();

    ProtectionDomain allocPd();

    /** Creates a completion queue of at least {@code entries} entries (ibv_create_cq). */
    CompletionQueue createCq(int entries);

    /** Creates a CQ that reports completion events to {@code channel} (ibv_create_cq with a channel). */
    CompletionQueue createCq(int entries, CompletionChannel channel);

    /** Creates a completion event channel (ibv_create_comp_channel). */
    CompletionChannel createCompletionChannel();

    /** Sets the listener for asynchronous events (replacing any earlier one; null for none). */
    void asyncEventListener(AsyncEventListener listener);

    /** A snapshot of the device's counters by name (rxe hw_counters names plus jroce's drop reasons). */
    Map<String, Long> counters();

    /**
     * Does the device's pending work on the calling thread, when the device lets application
     * threads drive it (jroce's invoker progress mode): reads what arrived, runs the protocol,
     * sends, and runs due timers. For a loop that waits on memory rather than on a CQ (a WRITE's
     * last byte, as perftest's write_lat polls): polling a CQ does the same by itself. A device
     * with an I/O thread of its own does nothing here.
     *
     * @return how much work was done (0: nothing was ready, another thread was progressing the
     *         device, or the device has an I/O thread of its own)
     */
    default int progress() {
        return 0;
    }

    /** Closes the device; refused with {@link ResourceBusyException} while PDs, CQs or completion channels remain. */
    @Override
    void close();
}
