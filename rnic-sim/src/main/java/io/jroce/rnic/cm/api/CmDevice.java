package io.jroce.rnic.cm.api;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Random;

import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.CmEvents;
import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.ConnectionManager;
import io.jroce.rnic.cm.SidrReply;
import io.jroce.rnic.cm.SidrRequest;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.verbs.Gid;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ResourceBusyException;

/**
 * One registered device: its {@link ConnectionManager}, made at registration so that the device
 * answers REQs as the kernel does (REJ 8 to a port nobody listens on) before any ID uses it, and
 * the routing of the manager's events to the IDs (listeners by service ID, connections by
 * {@link CmConnection}). The I/O thread writes the maps; the listeners may be read anywhere.
 */
final class CmDevice implements CmEvents {
    final SoftDevice device;
    /** Where this device's CM messages and QP packets go: the peers' RoCE UDP port. */
    final int peerUdpPort;
    private final ConnectionManager cm;
    private final Map<Long, SoftCmId> listeners = new ConcurrentHashMap<>();
    private final Map<CmConnection, SoftCmId> connections = new IdentityHashMap<>();
    /** librdmacm's per-device PD ({@code cma_device.pd}) for endpoints made without one, and its users. */
    private ProtectionDomain defaultPd;
    private int defaultPdUsers;

    CmDevice(SoftDevice device, int peerUdpPort) {
        this.device = device;
        this.peerUdpPort = peerUdpPort;
        this.cm = new ConnectionManager(device.gsi(), new Random(), peerUdpPort);
    }

    /** The device's manager (the GSI's handler). Its methods run on the I/O thread. */
    ConnectionManager cm() {
        return cm;
    }

    /** The index of {@code gid} in the device's GID table, or -1. */
    int gidIndex(Gid gid) {
        return device.gids().indexOf(gid);
    }

    /** The device's first address of the family (IPv4-mapped or not), or null. */
    Gid sourceFor(boolean ipv4) {
        for (Gid g : device.gids()) {
            if (g.isIpv4Mapped() == ipv4) {
                return g;
            }
        }
        return null;
    }

    List<Gid> gids() {
        return device.gids();
    }

    /** The device's PD for endpoints made without one, allocated for its first user ({@code ucma_get_device}). */
    synchronized ProtectionDomain acquireDefaultPd() {
        if (defaultPd == null) {
            defaultPd = device.allocPd();
        }
        defaultPdUsers++;
        return defaultPd;
    }

    /**
     * A user of the default PD is done; the last one deallocates it ({@code ucma_put_device}).
     *
     * @throws ResourceBusyException regions registered on it are still open (the PD stays for a later release)
     */
    synchronized void releaseDefaultPd() {
        if (--defaultPdUsers > 0) {
            return;
        }
        defaultPdUsers = 0;
        try {
            defaultPd.close();
        } catch (ResourceBusyException e) {
            throw new ResourceBusyException("the last endpoint of device " + device.name()
                + " is closed but memory registered through it (rdma_reg_msgs/read/write) is not: close the regions first", e);
        }
        defaultPd = null;
    }

    // I/O thread from here on.

    void listen(long serviceId, SoftCmId id) {
        cm().listen(serviceId, this);
        listeners.put(serviceId, id);
    }

    /** The ID listening for {@code serviceId} on this device, or null. Any thread. */
    SoftCmId listener(long serviceId) {
        return listeners.get(serviceId);
    }

    void stopListening(long serviceId) {
        if (listeners.remove(serviceId) != null) {
            cm().stopListening(serviceId);
        }
    }

    void track(CmConnection c, SoftCmId id) {
        connections.put(c, id);
    }

    void untrack(CmConnection c) {
        connections.remove(c);
    }

    @Override
    public void onConnectRequest(CmConnection c, ConnectRequest request) {
        SoftCmId listener = listeners.get(c.serviceId());
        if (listener == null) {
            cm().refuse(c); // cma_find_listener finds no ID: REJ 28 from REQ_RCVD
            return;
        }
        SoftCmId child = listener.onConnectRequest(this, c, request);
        if (child != null) {
            connections.put(c, child);
        }
    }

    @Override
    public void onSidrRequest(CmConnection c, SidrRequest request) {
        SoftCmId listener = listeners.get(c.serviceId());
        if (listener == null) {
            cm().sidrReject(c, new byte[0]); // cma_find_listener finds no ID: cm_destroy_id answers status 2
            return;
        }
        SoftCmId child = listener.onSidrRequest(this, c, request);
        if (child != null) {
            connections.put(c, child);
        }
    }

    @Override
    public void onSidrReply(CmConnection c, SidrReply reply) {
        SoftCmId id = connections.remove(c);
        if (id != null) {
            id.events.onSidrReply(reply);
        }
    }

    @Override
    public void onReply(CmConnection c, ConnectReply reply) {
        SoftCmId id = connections.get(c);
        if (id != null) {
            id.events.onReply(reply);
        }
    }

    @Override
    public void onEstablished(CmConnection c) {
        SoftCmId id = connections.get(c);
        if (id != null) {
            id.events.onEstablished();
        }
    }

    @Override
    public void onRejected(CmConnection c, int reason) {
        SoftCmId id = connections.remove(c);
        if (id != null) {
            id.events.onRejected(reason);
        }
    }

    @Override
    public void onUnreachable(CmConnection c) {
        SoftCmId id = connections.remove(c);
        if (id != null) {
            id.events.onUnreachable();
        }
    }

    @Override
    public void onDisconnected(CmConnection c) {
        SoftCmId id = connections.get(c);
        if (id != null) {
            id.events.onDisconnected();
        }
    }

    @Override
    public void onTimeWaitExit(CmConnection c) {
        SoftCmId id = connections.remove(c);
        if (id != null) {
            id.events.onTimeWaitExit();
        }
    }
}
