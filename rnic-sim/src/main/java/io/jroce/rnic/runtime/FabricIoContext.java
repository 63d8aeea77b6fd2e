package io.jroce.rnic.runtime;

import java.util.concurrent.Callable;

import io.jroce.rnic.core.IoContext;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.VerbsException;

/**
 * The I/O thread of a device on a {@link SimulatedFabric} is whichever thread runs the fabric (the
 * test's); time is the fabric's virtual clock.
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
}
