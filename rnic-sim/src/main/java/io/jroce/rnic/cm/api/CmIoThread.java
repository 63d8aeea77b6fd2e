package io.jroce.rnic.cm.api;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.VerbsException;

/**
 * Runs an RDMA CM call on a device's I/O thread, where its {@link io.jroce.rnic.cm.ConnectionManager}
 * lives, and waits for it: the application's threads never touch the manager themselves. The manager's
 * misuse exceptions come back as the typed ones of the verbs API.
 */
final class CmIoThread {
    private CmIoThread() {
    }

    /** As {@link #run}; a device closed meanwhile has nothing left to do. */
    static void runIfOpen(CmDevice dev, Runnable task) {
        try {
            run(dev, task);
        } catch (ResourceClosedException closed) {
            // The device closed: its manager and listeners are gone with it.
        }
    }

    /**
     * Runs {@code task} on the device's I/O thread and waits; the manager's misuse exceptions become
     * typed ones. Called on that thread (an async-event listener, or in the invoker mode the
     * application thread that owns the device), it runs at once: waiting for a later turn of the
     * thread that waits would never end.
     */
    static void run(CmDevice dev, Runnable task) {
        if (dev.device.gsi().inIoThread()) {
            try {
                task.run();
            } catch (RuntimeException e) {
                throw typed(e);
            }
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            dev.device.gsi().execute(() -> {
                try {
                    task.run();
                    done.complete(null);
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            });
            done.get();
        } catch (ExecutionException e) {
            throw typed(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException("interrupted while waiting for the device's I/O thread", e);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new ResourceClosedException("device " + dev.device.name() + " is closed", e);
        }
    }

    /** What the manager threw, as the verbs API's typed exceptions. */
    private static RuntimeException typed(Throwable cause) {
        if (cause instanceof VerbsException ve) {
            return ve;
        }
        if (cause instanceof IllegalStateException) {
            return new InvalidStateException(cause.getMessage(), cause);
        }
        if (cause instanceof IllegalArgumentException) {
            return new InvalidAttributeException(cause.getMessage(), cause);
        }
        return new VerbsException("RDMA CM call failed: " + cause, cause);
    }
}
