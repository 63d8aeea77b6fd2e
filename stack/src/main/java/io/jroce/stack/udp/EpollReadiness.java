package io.jroce.stack.udp;

import io.netty.channel.epoll.EpollEventArray;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.util.Arrays;

/**
 * Waiting for a {@link DirectUdpTransport}'s sockets or a wake-up, with a timeout in nanoseconds:
 * one epoll set holding the sockets (level-triggered, while watched), an eventfd for
 * {@link #wakeUp} and a timerfd for timeouts below a millisecond (Netty's
 * {@code Native.epollWait} arms it).
 *
 * <p>The eventfd and the timerfd are edge-triggered and never read: every {@link #wakeUp} is a new
 * edge that ends the epoll_wait running or the next one (the kernel queues it on the epoll set), and
 * is consumed by the wait that reports it. Re-arming the timerfd for the next wait resets its
 * expirations, so a timer that fired after its wait ended never ends a later one (epoll re-checks
 * readiness before reporting an edge-triggered entry).
 *
 * <p><b>Threading.</b> {@link #await} on one thread at a time; {@link #wakeUp} on any;
 * {@link #add}/{@link #remove} on any, concurrently with {@link #await} (epoll_ctl and epoll_wait
 * may run at once; the set of sockets and whether they are watched are changed under a lock that no
 * wait holds).
 */
final class EpollReadiness implements AutoCloseable {
    /** Events one wait can report; the caller only needs to know that one happened. */
    private static final int EVENTS = 16;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final FileDescriptor epoll;
    private final FileDescriptor eventFd;
    private final FileDescriptor timerFd;
    private final EpollEventArray events;
    private final Object lock = new Object();
    /** Socket descriptors in the set while watched. Guarded by {@link #lock}. */
    private int[] sockets = new int[0];
    /** Whether the sockets are in the epoll set. Written by the awaiting thread under {@link #lock}. */
    private boolean watching;
    /** Set by {@link #close}; guarded by the eventfd's monitor. */
    private boolean closed;

    EpollReadiness() {
        this.events = EpollInternals.newEpollEventArray(EVENTS);
        FileDescriptor e = null;
        FileDescriptor w = null;
        FileDescriptor t = null;
        try {
            e = Native.newEpollCreate();
            w = Native.newEventFd();
            t = Native.newTimerFd();
            Native.epollCtlAdd(e.intValue(), w.intValue(), Native.EPOLLIN | Native.EPOLLET);
            Native.epollCtlAdd(e.intValue(), t.intValue(), Native.EPOLLIN | Native.EPOLLET);
        } catch (IOException | RuntimeException ex) {
            closeQuietly(e);
            closeQuietly(w);
            closeQuietly(t);
            throw new UdpTransportException("cannot create the epoll set of the direct UDP transport: " + ex, ex);
        }
        this.epoll = e;
        this.eventFd = w;
        this.timerFd = t;
    }

    /** Adds a socket, watched from now on when sockets are watched. */
    void add(int fd) throws IOException {
        synchronized (lock) {
            if (watching) {
                Native.epollCtlAdd(epoll.intValue(), fd, Native.EPOLLIN);
            }
            int[] grown = Arrays.copyOf(sockets, sockets.length + 1);
            grown[sockets.length] = fd;
            sockets = grown;
        }
    }

    /** Removes a socket (before it is closed). */
    void remove(int fd) {
        synchronized (lock) {
            int at = -1;
            for (int i = 0; i < sockets.length; i++) {
                if (sockets[i] == fd) {
                    at = i;
                }
            }
            if (at < 0) {
                return;
            }
            if (watching) {
                try {
                    Native.epollCtlDel(epoll.intValue(), fd);
                } catch (IOException e) {
                    // closing the socket removes it from the set anyway
                }
            }
            int[] shrunk = new int[sockets.length - 1];
            System.arraycopy(sockets, 0, shrunk, 0, at);
            System.arraycopy(sockets, at + 1, shrunk, at, sockets.length - at - 1);
            sockets = shrunk;
        }
    }

    /**
     * Blocks until a watched socket is readable ({@code watchSockets}), a {@link #wakeUp} comes (or
     * came since the last wait), or {@code timeoutNs} passed (0 or less: does not block).
     */
    void await(long timeoutNs, boolean watchSockets) throws IOException {
        if (watchSockets != watching) {
            watch(watchSockets);
        }
        int sec;
        int ns;
        if (timeoutNs <= 0) {
            sec = 0;
            ns = 0;
        } else if (timeoutNs / NANOS_PER_SECOND >= Integer.MAX_VALUE) {
            sec = Integer.MAX_VALUE; // Netty: wait without a timeout
            ns = 0;
        } else {
            sec = (int) (timeoutNs / NANOS_PER_SECOND);
            ns = (int) (timeoutNs % NANOS_PER_SECOND);
        }
        Native.epollWait(epoll, events, timerFd, sec, ns);
    }

    /**
     * Ends the running {@link #await}, or the next one. Any thread; one write(2) to the eventfd,
     * none once closed. Synchronised with {@link #close} only, so that a wake-up racing a close
     * never writes to a descriptor number the kernel already gave to another file.
     */
    void wakeUp() {
        synchronized (eventFd) {
            if (!closed) {
                Native.eventFdWrite(eventFd.intValue(), 1L);
            }
        }
    }

    private void watch(boolean watch) throws IOException {
        synchronized (lock) {
            for (int fd : sockets) {
                if (watch) {
                    Native.epollCtlAdd(epoll.intValue(), fd, Native.EPOLLIN);
                } else {
                    Native.epollCtlDel(epoll.intValue(), fd);
                }
            }
            watching = watch;
        }
    }

    @Override
    public void close() {
        closeQuietly(epoll);
        synchronized (eventFd) {
            closed = true;
            closeQuietly(eventFd);
        }
        closeQuietly(timerFd);
    }

    private static void closeQuietly(FileDescriptor fd) {
        if (fd != null) {
            try {
                fd.close();
            } catch (IOException e) {
                // nothing left to do with it
            }
        }
    }
}
