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
            return loop.submit(task).get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new VerbsException("I/O thread task failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException("interrupted while waiting for the I/O thread", e);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new TransportException("the device's I/O thread has stopped", e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new VerbsException("I/O thread task failed: " + e, e);
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
        io.netty.util.concurrent.Future<T> f = loop.submit(task).awaitUninterruptibly();
        if (f.isSuccess()) {
            return f.getNow();
        }
        Throwable cause = f.cause();
        if (cause instanceof RuntimeException re) {
            throw re;
        }
        if (cause instanceof java.util.concurrent.RejectedExecutionException) {
            throw new TransportException("the device's I/O thread has stopped", cause);
        }
        throw new VerbsException("I/O thread task failed: " + cause, cause);
    }

    @Override
    public long nowNs() {
        return System.nanoTime();
    }
}
