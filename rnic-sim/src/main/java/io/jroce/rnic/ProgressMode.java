package io.jroce.rnic;

/**
 * Which thread runs a device's RNIC work: receiving, the requester/responder/completer, sending and
 * the timers. Chosen per device ({@link SoftRnic.Builder#progressMode}, default from
 * {@link Configuration#PROGRESS_PROP_NAME}); see docs/progress-modes.md.
 */
public enum ProgressMode {
    /**
     * The device's own I/O thread (a Netty event loop) does everything; application threads post
     * work to it and read completions it wrote. The default: nothing is asked of the application,
     * and a blocked or sleeping application is served at once.
     */
    EVENT_LOOP,
    /**
     * The application's own calls do the work on their thread, as Aeron's {@code AgentInvoker}
     * runs a media driver's agents: polling a CQ that finds it empty, posting, and
     * {@link io.jroce.verbs.RdmaDevice#progress()} read the sockets without blocking, process what
     * arrived, send and run due timers, with no hand-off between threads. One thread owns the
     * device at a time. While no application thread progresses it (the passive side of a READ or
     * WRITE, a thread blocked in {@code pollBlocking} or the RDMA CM, an application gone quiet), a
     * fallback thread of the device takes over, woken by the sockets, until one does again.
     * Linux native epoll only.
     */
    INVOKER
}
