package io.jroce.rnic.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.stack.transport.PolledTransport;

/**
 * The thread that progresses an invoker-mode device while no application thread does: the
 * passive side of a READ, WRITE or atomic, RDMA CM traffic on QP1, the timers of a QP whose
 * application went quiet, anything that arrives while the application blocks.
 *
 * <p>While an application thread progressed the device within
 * the fallback window ({@code jroce.invoker.fallbackAfterUs}), it sleeps without watching the sockets (the
 * application reads them), waking once that window may have closed or on a hand-over. Otherwise it
 * takes the device for a round, and when a round finds nothing to do it sleeps until a socket is
 * readable, a hand-over or a task arrives, or the timers are due; with a spin time
 * ({@code jroce.invoker.fallbackSpinUs}) it first goes on polling that long.
 */
final class ProgressFallback implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressFallback.class);
    private static final long STOP_WAIT_MS = 5_000;

    private final InvokerIoContext io;
    private final PolledTransport transport;
    private final Thread thread;
    private volatile boolean running = true;

    ProgressFallback(InvokerIoContext io, PolledTransport transport, String deviceName) {
        this.io = io;
        this.transport = transport;
        this.thread = new Thread(this, "jroce-" + deviceName + "-fallback");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Stops the thread and, if {@code wait}, waits for it (never on itself). Without waiting (the
     * caller holds the device, which the thread may be waiting for) the thread ends after its
     * current round.
     */
    void stop(boolean wait) {
        running = false;
        transport.wakeUp();
        if (wait && Thread.currentThread() != thread) {
            try {
                thread.join(STOP_WAIT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("{} did not stop within {} ms", thread.getName(), STOP_WAIT_MS);
            }
        }
    }

    /**
     * Polls the device for up to {@code jroce.invoker.fallbackSpinUs} after a round that found
     * nothing, before sleeping: a passive side whose requests come one after the other (the server
     * of read_lat) then answers without the wake-up of a sleeping thread each time (tens of
     * microseconds on a small virtual machine), as a NIC polls its queues. True as soon as a round
     * found work, or an application thread took over; false when the time ran out.
     */
    private boolean spin() {
        long spinNs = io.fallbackSpinNs();
        if (spinNs <= 0) {
            return false;
        }
        long until = System.nanoTime() + spinNs;
        while (running) {
            long now = System.nanoTime();
            if (now - until >= 0) {
                return false;
            }
            long last = io.lastApplicationNs();
            if (last != 0 && now - last < io.fallbackAfterNs()) {
                return true; // an application thread progresses the device again
            }
            if (io.fallbackRound() > 0) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    @Override
    public void run() {
        while (running) {
            try {
                long now = System.nanoTime();
                long last = io.lastApplicationNs();
                long window = io.fallbackAfterNs();
                if (last != 0 && now - last < window) {
                    transport.await(window - (now - last), false);
                    continue;
                }
                if (io.fallbackRound() == 0 && running && !spin()) {
                    transport.await(io.nanosToTimers(System.nanoTime()), true);
                }
            } catch (Throwable t) {
                if (running) {
                    // Keep serving the device whatever a round threw (a handler's assert, a
                    // transport's bug): a dead fallback would leave the passive side unserved.
                    LOG.error("{}: progress round failed", thread.getName(), t);
                }
            }
        }
    }
}
