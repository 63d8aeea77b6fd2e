package io.jroce.stack.transport;

/**
 * A transport with no thread of its own: whichever thread progresses the RNIC reads the ready
 * datagrams itself, without blocking, and its sends leave from that thread. It carries the invoker
 * progress mode, in which the application's own calls (polling a CQ, posting) run the RNIC, as
 * Aeron's {@code AgentInvoker} runs a media driver's agents on the application's thread.
 *
 * <p><b>Threading.</b> {@link #receive}, {@link #send}, {@link #flush}, {@link #joinGroup} and
 * {@link #leaveGroup} may be called from any thread, but never from two at once: the caller
 * serialises them (the device's progress owner, one thread at a time). {@link #await} is called by
 * one thread at a time, the fallback thread that progresses the device while no application thread
 * does; it may run concurrently with the others. {@link #wakeUp} is for any thread at any time.
 * {@link #close} is called once, when no other call is in progress.
 *
 * <p>{@link #start} registers the handler and reads nothing: datagrams wait in the sockets'
 * buffers until the next {@link #receive}.
 */
public interface PolledTransport extends RoceTransport {
    /**
     * Reads up to {@code maxDatagrams} datagrams that are ready, without blocking, and hands every
     * accepted packet to the handler on the calling thread. What the handler sent is queued until
     * the caller's {@link #flush}: an application thread that polled a completion and answers it at
     * once sends the acknowledgement and its answer in one system call.
     *
     * @return the number of datagrams read (accepted or dropped); 0 when none was ready
     * @param maxDatagrams the most datagrams to read
     */
    int receive(int maxDatagrams);

    /**
     * Blocks the calling thread until a socket has a datagram to read ({@code watchSockets}), a
     * {@link #wakeUp} arrives (one that came since the last await counts), or {@code timeoutNs}
     * passed. Reads nothing.
     *
     * @param timeoutNs the longest wait, in nanoseconds
     * @param watchSockets whether a readable socket ends the wait
     */
    void await(long timeoutNs, boolean watchSockets);

    /** Ends the current {@link #await}, or the next one if none is running. Any thread; never blocks. */
    void wakeUp();
}
