package io.jroce.verbs;

import java.util.List;
import java.util.Map;

/** An open RDMA device and its context (ibv_context): the root of every other resource. */
public interface RdmaDevice extends AutoCloseable {
    /**
     * The device's name.
     *
     * @return the name, e.g. {@code jroce0}
     */
    String name();

    /**
     * The GID table of port 1 (ibv_query_gid): one entry per configured IP address.
     *
     * @return the GIDs, by index
     */
    List<Gid> gids();

    /**
     * The device's attributes and limits (ibv_query_device).
     *
     * @return the attributes
     */
    DeviceAttributes queryDevice();

    /**
     * The attributes of port 1, the device's only port (ibv_query_port).
     *
     * @return the attributes
     */
    PortAttributes queryPort();

    /**
     * Allocates a protection domain (ibv_alloc_pd).
     *
     * @return the PD
     * @throws ResourceLimitException the device has its maximum number of PDs
     */
    ProtectionDomain allocPd();

    /**
     * Creates a completion queue (ibv_create_cq).
     *
     * @param entries how many completions it must hold at least
     * @return the CQ
     * @throws ResourceLimitException    the device has its maximum number of CQs
     * @throws InvalidAttributeException {@code entries} is outside 1..max_cqe
     */
    CompletionQueue createCq(int entries);

    /**
     * Creates a completion queue that reports completion events to a channel (ibv_create_cq with a channel).
     *
     * @param entries how many completions it must hold at least
     * @param channel where events go once the CQ is {@link CompletionQueue#requestNotification armed}
     * @return the CQ
     * @throws ResourceLimitException    the device has its maximum number of CQs
     * @throws InvalidAttributeException {@code entries} is outside 1..max_cqe, or the channel is another device's
     */
    CompletionQueue createCq(int entries, CompletionChannel channel);

    /**
     * Creates a completion event channel (ibv_create_comp_channel).
     *
     * @return the channel
     */
    CompletionChannel createCompletionChannel();

    /**
     * Sets the listener for asynchronous events, replacing any earlier one.
     *
     * @param listener the listener, or null for none
     */
    void asyncEventListener(AsyncEventListener listener);

    /**
     * The device's counters.
     *
     * @return a snapshot by name: rxe's hw_counters names plus jroce's drop reasons
     */
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
