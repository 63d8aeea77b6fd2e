package io.jroce.rnic.runtime;

import java.util.concurrent.Callable;

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

    /**
     * Runs {@code task} on the event loop and waits for it even when the calling thread is
     * interrupted meanwhile (the interrupt stays set). A verb must take effect or fail for a reason
     * of its own: a wait given up at an interrupt left it half done, its task run on the loop or
     * not, and a QP destroyed that way kept its PD and CQs, so its device could never close.
     */
    @Override
    public <T> T call(Callable<T> task) {
        if (loop.inEventLoop()) {
            try {
                return task.call();
            } catch (Exception e) {
                throw failed(e);
            }
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
        if (cause instanceof java.util.concurrent.RejectedExecutionException) {
            return new TransportException("the device's I/O thread has stopped", cause); // a task run here met it too
        }
        return cause instanceof RuntimeException re ? re : new VerbsException("I/O thread task failed: " + cause, cause);
    }

    @Override
    public long nowNs() {
        return System.nanoTime();
    }
}
