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

    /** Runs {@code task} on the device's I/O thread and waits; the manager's misuse exceptions become typed ones. */
    static void run(CmDevice dev, Runnable task) {
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
            Throwable cause = e.getCause();
            if (cause instanceof VerbsException ve) {
                throw ve;
            }
            if (cause instanceof IllegalStateException) {
                throw new InvalidStateException(cause.getMessage(), cause);
            }
            if (cause instanceof IllegalArgumentException) {
                throw new InvalidAttributeException(cause.getMessage(), cause);
            }
            throw new VerbsException("RDMA CM call failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException("interrupted while waiting for the device's I/O thread", e);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new ResourceClosedException("device " + dev.device.name() + " is closed", e);
        }
    }
}
