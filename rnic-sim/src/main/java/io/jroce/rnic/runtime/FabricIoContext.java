package io.jroce.rnic.runtime;

import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

import io.jroce.rnic.core.IoContext;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.VerbsException;

/**
 * The I/O thread of a device on a {@link SimulatedFabric} is whichever thread runs the fabric (the
 * test's); time is the fabric's virtual clock. A blocking wait of that thread (a blocking poll, a
 * completion channel's getEvent) runs the fabric until what it waits for arrives, in the fabric's
 * time, instead of sleeping out a real-time timeout in which nothing moves the fabric; inside the
 * fabric's own run it is refused. Another thread's wait stays a real-time one: the fabric's thread
 * produces what it waits for.
 */
public final class FabricIoContext implements IoContext {
    private final SimulatedFabric fabric;

    /**
     * The context of a device on {@code fabric}.
     *
     * @param fabric the fabric the device is attached to
     */
    public FabricIoContext(SimulatedFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public boolean inIoThread() {
        return fabric.inFabricThread();
    }

    @Override
    public void execute(Runnable task) {
        fabric.execute(task);
    }

    @Override
    public <T> T call(Callable<T> task) {
        if (!fabric.inFabricThread()) {
            throw new VerbsException("a device on a simulated fabric is driven from the thread that runs the fabric");
        }
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new VerbsException("task failed: " + e, e);
        }
    }

    @Override
    public long nowNs() {
        return fabric.nowNs();
    }

    /** The fabric's clock, when the caller drives it ({@link SimulatedFabric#drivenByCurrentThread}). */
    @Override
    public boolean virtualTime() {
        return fabric.drivenByCurrentThread();
    }

    @Override
    public boolean runUntil(BooleanSupplier ready, long timeoutNs) {
        if (fabric.running()) {
            throw new InvalidStateException("a blocking wait inside the simulated fabric's own run (a task, a"
                + " handler or a listener it called) cannot run the fabric again: poll without blocking there");
        }
        return fabric.runUntil(ready, timeoutNs);
    }
}
