package io.jroce.rnic.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventListener;
import io.jroce.verbs.AsyncEventType;

/**
 * Delivers a device's asynchronous events (IBTA Vol. 1 11.6.3, struct ibv_async_event) to its
 * listener, always on the I/O thread and in the order they were raised.
 *
 * <p>A class of its own because the listener is application code running on the thread that
 * carries the protocol: whatever it throws is caught and logged here, so that it can never stop
 * the I/O thread or abort the packet being processed.
 *
 * <p>Events raised while no listener is set are dropped, with one exception: the port becomes
 * active while the device opens, before anyone can have set a listener, so that PORT_ACTIVE is
 * held and delivered to the first listener set while the port is still active (once per device; a
 * later listener learns the port state from {@code queryPort()}). PORT_ERR cancels a held
 * PORT_ACTIVE.
 */
final class AsyncEvents {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncEvents.class);

    private final IoContext io;
    private final String deviceName;
    private final Runnable deliverHeld = this::deliverHeldPortActive;
    private volatile AsyncEventListener listener;
    /** PORT_ACTIVE raised with no listener set, waiting for one. I/O thread only. */
    private boolean portActiveHeld;

    AsyncEvents(IoContext io, String deviceName) {
        this.io = io;
        this.deviceName = deviceName;
    }

    /** Sets (or with null clears) the listener. Any thread. */
    void listener(AsyncEventListener l) {
        listener = l;
        if (l != null) {
            io.execute(deliverHeld);
        }
    }

    /** Raises {@code event}: delivered now when called on the I/O thread, else queued to it. Any thread. */
    void raise(AsyncEvent event) {
        if (io.inIoThread()) {
            dispatch(event);
        } else {
            io.execute(() -> dispatch(event));
        }
    }

    private void deliverHeldPortActive() {
        if (portActiveHeld && listener != null) {
            portActiveHeld = false;
            dispatch(new AsyncEvent(AsyncEventType.PORT_ACTIVE, null, 1));
        }
    }

    /** I/O thread. */
    private void dispatch(AsyncEvent event) {
        if (event.type() == AsyncEventType.PORT_ERR) {
            portActiveHeld = false;
        }
        AsyncEventListener l = listener;
        if (l == null) {
            if (event.type() == AsyncEventType.PORT_ACTIVE) {
                portActiveHeld = true;
            } else {
                LOG.debug("{}: no async event listener; dropping {}", deviceName, event);
            }
            return;
        }
        try {
            l.onEvent(event);
        } catch (Throwable t) {
            // Application code must not kill the I/O thread (nor the packet it is processing).
            LOG.error("{}: the async event listener threw on {}; ignored", deviceName, event, t);
        }
    }
}
