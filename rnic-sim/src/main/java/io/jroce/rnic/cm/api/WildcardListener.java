package io.jroce.rnic.cm.api;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.cm.PortSpace;

/**
 * The listening of an ID bound to a wildcard address (0.0.0.0 or ::): on every registered device and on
 * those that register later ({@code cma_listen_on_all}, {@code cma_add_one}), until it stops or a device
 * closes. The devices it listens on, and whether it still listens, are guarded by {@code listenedOn}:
 * devices' I/O threads and the application's race here.
 */
final class WildcardListener {
    private static final Logger LOG = LoggerFactory.getLogger(WildcardListener.class);

    private final SoftCmId id;
    private final PortSpace portSpace;
    private final InetSocketAddress local;
    private final long serviceId;
    /** The devices listened on ({@code cma_listen_on_dev}), and whether it still listens; guarded by itself. */
    private final List<CmDevice> listenedOn = new ArrayList<>();
    private boolean listeningOnAll;

    WildcardListener(SoftCmId id, PortSpace portSpace, InetSocketAddress local) {
        this.id = id;
        this.portSpace = portSpace;
        this.local = local;
        this.serviceId = portSpace.serviceId(local.getPort());
    }

    /**
     * {@code cma_listen_on_all}: listens on every registered device, and on those that register later.
     * When a device's port is already listened on, it throws; the caller then {@link #stop}s.
     */
    void listenOnAll() {
        synchronized (listenedOn) {
            listeningOnAll = true;
        }
        for (CmDevice d : CmDevices.listenOnAll(id)) {
            try {
                CmIoThread.runIfOpen(d, () -> listenOnDevice(d));
            } catch (InvalidStateException e) {
                throw new InvalidStateException("port " + local.getPort() + " of " + portSpace
                    + " is already listened on " + d.device.name(), e);
            }
        }
    }

    /**
     * {@code cma_add_one}: a device registering while this wildcard listener listens. It listens there
     * before the device's open returns, as the kernel's {@code cma_add_one} runs {@code cma_listen_on_dev}
     * before the device is used: the device's socket already receives, and a REQ read before a queued
     * listen would find no listener (REJ 8), since an event loop reads its socket before it runs the
     * tasks queued for it.
     */
    void listenOn(CmDevice d) {
        try {
            CmIoThread.runIfOpen(d, () -> listenOnDevice(d));
        } catch (RuntimeException e) {
            // The device opens whatever a listener of another ID makes of it: it is registered already,
            // and an exception here would leave it registered with nobody to close it, shadowing later
            // devices on its address (an opening thread interrupted while it waited here did that: a
            // twin cancelled by its test left its device behind, and rping's next server bound to it).
            // The wait keeps the thread's interrupt (CmIoThread.run sets it again).
            LOG.warn("{}: the wildcard listener {} cannot listen on it: {}", d.device.name(), local, e.toString());
        }
    }

    /** On {@code d}'s I/O thread: listens there unless the listener stopped (a close that ran first). */
    private void listenOnDevice(CmDevice d) {
        synchronized (listenedOn) {
            if (!listeningOnAll) {
                return;
            }
            listenedOn.add(d);
        }
        try {
            d.listen(serviceId, id);
        } catch (IllegalStateException e) {
            synchronized (listenedOn) {
                listenedOn.remove(d);
            }
            throw e;
        }
    }

    /** A device this wildcard listener may listen on closed: it drops out. */
    void deviceClosed(CmDevice d) {
        synchronized (listenedOn) {
            listenedOn.remove(d);
        }
    }

    /**
     * Stops listening for devices to come and returns those listened on (a closed one has dropped out),
     * for the caller to stop listening on each.
     */
    List<CmDevice> stop() {
        CmDevices.stopListeningOnAll(id);
        synchronized (listenedOn) {
            listeningOnAll = false;
            List<CmDevice> devices = List.copyOf(listenedOn);
            listenedOn.clear();
            return devices;
        }
    }
}
