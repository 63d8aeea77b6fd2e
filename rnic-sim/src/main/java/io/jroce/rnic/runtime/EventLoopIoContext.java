package io.jroce.rnic.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

import io.jroce.rnic.core.IoContext;
import io.jroce.verbs.TransportException;
import io.jroce.verbs.VerbsException;
import io.netty.channel.EventLoop;

/** The I/O thread of a device is the Netty event loop that owns its sockets. */
public final class EventLoopIoContext implements IoContext {
    private final EventLoop loop;

    /**
     * The context of a device whose sockets {@code loop} owns.
     *
     * @param loop the event loop of the device's sockets
     */
    public EventLoopIoContext(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public boolean inIoThread() {
        return loop.inEventLoop();
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public <T> T call(Callable<T> task) {
        try {
            if (loop.inEventLoop()) {
                return task.call();
            }
            return submit(task).get();
        } catch (ExecutionException e) {
            throw failed(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException("interrupted while waiting for the I/O thread", e);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new TransportException("the device's I/O thread has stopped", e); // a task run here met it too
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failed(e);
        }
    }

    /**
     * Runs {@code task} on the event loop and waits for it even if the calling thread is interrupted
     * meanwhile, whose interrupt then stays set: for opening a device, which must either return it or
     * fail for a reason of its own, never leave it half made because its caller was cancelled.
     *
     * @param task what to run on the loop
     * @param <T>  what it returns
     * @return what it returned; what it threw is rethrown
     */
    public <T> T callUninterruptibly(Callable<T> task) {
        if (loop.inEventLoop()) {
            return call(task);
        }
        io.netty.util.concurrent.Future<T> f = submit(task).awaitUninterruptibly();
        if (f.isSuccess()) {
            return f.getNow();
        }
        throw failed(f.cause());
    }

    /** Submits {@code task} to the loop; a loop that has stopped is the device's transport closed. */
    private <T> io.netty.util.concurrent.Future<T> submit(Callable<T> task) {
        try {
            return loop.submit(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new TransportException("the device's I/O thread has stopped", e);
        }
    }

    /** What a task threw, as the caller sees it: itself if unchecked, else wrapped. */
    private static RuntimeException failed(Throwable cause) {
        return cause instanceof RuntimeException re ? re : new VerbsException("I/O thread task failed: " + cause, cause);
    }

    @Override
    public long nowNs() {
        return System.nanoTime();
    }
}
