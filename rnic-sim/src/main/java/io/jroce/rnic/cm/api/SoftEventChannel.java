package io.jroce.rnic.cm.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/** An event channel: the devices' I/O threads queue (never block), the application takes. */
final class SoftEventChannel implements RdmaEventChannel {
    private final LinkedBlockingQueue<RdmaCmEvent> events = new LinkedBlockingQueue<>();
    private final Set<SoftCmId> ids = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    @Override
    public RdmaCmId createId(PortSpace portSpace) {
        ensureOpen();
        SoftCmId id = new SoftCmId(this, Arguments.notNull(portSpace, "port space"));
        ids.add(id);
        return id;
    }

    /** Adds an ID made for a connect request. */
    void adopt(SoftCmId id) {
        ids.add(id);
    }

    void forget(SoftCmId id) {
        ids.remove(id);
    }

    /** Queues an event. Any thread; never blocks. */
    void post(RdmaCmEvent event) {
        events.add(event);
    }

    @Override
    public RdmaCmEvent get(long timeout, TimeUnit unit) throws InterruptedException {
        ensureOpen();
        RdmaCmEvent ready = events.poll();
        if (ready != null) {
            return taken(ready);
        }
        CmDevices.handOverAll();
        return taken(events.poll(timeout, unit));
    }

    @Override
    public RdmaCmEvent poll() {
        ensureOpen();
        return taken(events.poll());
    }

    /** Removes the CONNECT_REQUESTs of {@code listener} not yet taken, and returns their IDs. */
    List<SoftCmId> withdrawRequests(SoftCmId listener) {
        List<SoftCmId> withdrawn = new ArrayList<>();
        events.removeIf(e -> {
            if (e.type() == RdmaCmEventType.CONNECT_REQUEST && e.listenId() == listener) {
                withdrawn.add((SoftCmId) e.id());
                return true;
            }
            return false;
        });
        return withdrawn;
    }

    /**
     * Removes the events of {@code id} not yet taken: a destroyed ID's unread events never reach the
     * application (the kernel's ucma_destroy_id frees them).
     */
    void discard(SoftCmId id) {
        events.removeIf(e -> e.id() == id);
    }

    /**
     * An event taken: its ID's close() waits for its acknowledgement (librdmacm counts it in
     * events_reported); a CONNECT_REQUEST frees a place in its listener's backlog, as ucma_get_event does.
     */
    private static RdmaCmEvent taken(RdmaCmEvent e) {
        if (e == null) {
            return null;
        }
        ((SoftCmId) e.id()).events.taken();
        if (e.type() == RdmaCmEventType.CONNECT_REQUEST && e.listenId() instanceof SoftCmId listener) {
            listener.requestTaken();
        }
        return e;
    }

    @Override
    public void close() {
        if (!ids.isEmpty()) {
            throw new ResourceBusyException("event channel still has " + ids.size() + " open ID(s); close them first");
        }
        closed = true;
    }

    private void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("the event channel is closed");
        }
    }
}
