package io.jroce.rnic.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.jroce.stack.fault.DelayScheduler;

/**
 * The clock behind the packets a fault injector delays, for an invoker-mode device (which has no
 * event loop to schedule on): a daemon timer thread that, when a delay ends, hands the send to the
 * device to run as its owner. Fault injection is for tests, so a task object per delayed packet is
 * fine here.
 */
public final class DelayedSends implements DelayScheduler {
    private final ScheduledThreadPoolExecutor timer;
    private volatile Executor owner;

    /**
     * Creates the timer of one device's delayed sends.
     *
     * @param deviceName the device's name, for the timer thread's name
     */
    public DelayedSends(String deviceName) {
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jroce-" + deviceName + "-delays");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Where a send runs when its delay ends: the device, as its owner. Before the first packet.
     *
     * @param deviceOwner runs a task as the device's owner
     */
    public void runAs(Executor deviceOwner) {
        this.owner = deviceOwner;
    }

    @Override
    public void schedule(long delayNs, Runnable task) {
        try {
            timer.schedule(() -> {
                try {
                    owner.execute(task);
                } catch (RejectedExecutionException closed) {
                    // the device closed meanwhile: the packet is lost with it
                }
            }, delayNs, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // the device is closing: the packet is lost with it
        }
    }

    /** Drops the sends still waiting; with the device. */
    public void close() {
        timer.shutdownNow();
    }
}
