package io.jroce.rnic.cm.api;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.SidrRequest;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.McJoinFlag;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * An RDMA CM ID over a device's {@link io.jroce.rnic.cm.ConnectionManager}: the application's calls,
 * each checked against the ID's {@link CmIdState}, then run on the device's I/O thread. Its parts:
 * where it is ({@link CmIdRoute}), its events ({@link CmIdEvents}), an RC connection
 * ({@link RcConnection}), a UD ID's SIDR exchange ({@link SidrExchange}), a listener's listening
 * ({@link CmListening}) and the multicast groups ({@link CmMulticast}).
 */
final class SoftCmId implements RdmaCmId {
    static final int EINVAL = -22;
    /** The QPN a multicast group is addressed with (IB_MULTICAST_QPN), as MULTICAST_JOIN's ud param names it. */
    static final int MULTICAST_QPN = 0xFFFFFF;
    private static final int MAX_REQ_PRIVATE_DATA = ConnectParams.MAX_PRIVATE_DATA - CmaHeaderFlyweight.LENGTH;
    /** The Q_Key of the UDP port space ({@code RDMA_UDP_QKEY}, cma.c {@code cma_set_default_qkey}). */
    static final int RDMA_UDP_QKEY = 0x01234567;

    /** Changed only by {@link #migrate}, before any event of the new channel's. */
    private volatile SoftEventChannel channel;
    private final PortSpace portSpace;
    /** The manager's reports, the events queued, and those taken and not acknowledged. */
    final CmIdEvents events = new CmIdEvents(this);
    private volatile CmIdState state = CmIdState.IDLE;
    final CmIdRoute route = new CmIdRoute();
    private volatile QueuePair qp;
    /** The connection with the peer, or null: none yet, or a listener. */
    CmConnection conn;
    final RcConnection rc = new RcConnection(this);
    final SidrExchange sidr = new SidrExchange(this);
    /** A listener's listening and its connect requests. */
    private final CmListening listening = new CmListening(this);
    /** The multicast groups joined. */
    private final CmMulticast multicast = new CmMulticast();

    SoftCmId(SoftEventChannel channel, PortSpace portSpace) {
        this.channel = channel;
        this.portSpace = portSpace;
    }

    @Override
    public PortSpace portSpace() {
        return portSpace;
    }

    @Override
    public RdmaEventChannel channel() {
        return channel;
    }

    /**
     * Moves the ID to {@code to} ({@code rdma_migrate_id}): its later events are queued there. The
     * synchronous endpoints give each connect request's ID its own channel this way.
     */
    synchronized void migrate(SoftEventChannel to) {
        Arguments.notNull(to, "event channel");
        state.expect(CmIdState.REQUEST, CmIdState.IDLE, CmIdState.BOUND, CmIdState.ADDR_RESOLVED,
            CmIdState.ROUTE_RESOLVED);
        SoftEventChannel from = channel;
        to.adopt(this);
        channel = to;
        from.forget(this);
    }

    @Override
    public synchronized void bindAddr(InetSocketAddress address) {
        state.expect(CmIdState.IDLE);
        route.bind(this, portSpace, Arguments.notNull(address, "address"));
        state = CmIdState.BOUND;
    }

    boolean isListening() {
        return state == CmIdState.LISTEN;
    }

    @Override
    public synchronized void listen(int backlog) {
        state.expect(CmIdState.BOUND);
        listening.listen(portSpace, backlog);
        state = CmIdState.LISTEN;
    }

    @Override
    public synchronized void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMs) {
        Arguments.notNull(destination, "destination");
        if (destination.getAddress() == null) {
            throw new InvalidAttributeException("unresolved destination " + destination);
        }
        if (source != null && state == CmIdState.IDLE) {
            bindAddr(source);
        }
        state.expect(CmIdState.IDLE, CmIdState.BOUND);
        route.resolve(this, portSpace, destination);
        state = CmIdState.ADDR_RESOLVED;
        events.post(RdmaCmEventType.ADDR_RESOLVED, 0, null, null, null, null);
    }

    @Override
    public synchronized void setOption(RdmaCmOption option, int value) {
        Arguments.notNull(option, "option");
        state.expect(CmIdState.values()); // any state but CLOSED, as the kernel takes it
        route.setOption(portSpace, option, value);
    }

    @Override
    public synchronized void resolveRoute(int timeoutMs) {
        state.expect(CmIdState.ADDR_RESOLVED);
        route.resolveRoute();
        state = CmIdState.ROUTE_RESOLVED;
        events.post(RdmaCmEventType.ROUTE_RESOLVED, 0, null, null, null, null);
    }

    @Override
    public synchronized QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes) {
        Arguments.notNull(pd, "protection domain");
        Arguments.notNull(attributes, "QP init attributes");
        CmDevice dev = route.dev;
        if (dev == null) {
            throw new InvalidStateException("bind or resolve an address before rdma_create_qp: the ID has no device");
        }
        if (qp != null) {
            throw new InvalidStateException("the ID already has QP " + qp.qpNum());
        }
        if (pd.device() != dev.device) {
            throw new InvalidAttributeException("the protection domain is of device " + pd.device().name()
                + ", the ID's is " + dev.device.name());
        }
        if (portSpace == PortSpace.UDP) {
            qp = CmQpTransitions.createUd(pd, attributes, RDMA_UDP_QKEY);
            return qp;
        }
        if (attributes.type() != QpType.RC) {
            throw new InvalidAttributeException("only RC QPs are connected through the CM yet, not " + attributes.type());
        }
        qp = CmQpTransitions.createRc(pd, attributes);
        return qp;
    }

    @Override
    public synchronized void connect(ConnParam p) {
        Arguments.notNull(p, "connection parameters");
        state.expect(CmIdState.ROUTE_RESOLVED);
        requireQp();
        byte[] user = p.privateData();
        boolean ud = portSpace == PortSpace.UDP;
        int max = ud ? SidrExchange.MAX_REQ_PRIVATE_DATA : MAX_REQ_PRIVATE_DATA;
        if (user.length > max) {
            throw new InvalidAttributeException("a " + (ud ? "SIDR_REQ" : "REQ") + " carries at most " + max
                + " bytes of private data after the RDMA CM header, got " + user.length);
        }
        byte[] privateData = route.cmaPrivateData(user);
        if (ud) {
            sidr.connect(privateData);
        } else {
            rc.connect(p, privateData);
        }
    }

    /**
     * CONNECTING, then {@code send} (the REQ or SIDR_REQ) on the I/O thread, its connection tracked for
     * its events; back to ROUTE_RESOLVED when it could not be sent.
     */
    void connecting(Supplier<CmConnection> send) {
        state = CmIdState.CONNECTING; // before the request leaves: its answer may come back before onIo returns
        try {
            onIo(() -> {
                conn = send.get();
                route.dev.track(conn, this);
            });
        } catch (RuntimeException e) {
            state = CmIdState.ROUTE_RESOLVED;
            throw e;
        }
    }

    @Override
    public synchronized void accept(ConnParam p) {
        Arguments.notNull(p, "connection parameters");
        state.expect(CmIdState.REQUEST);
        requireQp();
        if (portSpace == PortSpace.UDP) {
            sidr.accept(p.privateData());
        } else {
            rc.accept(p);
        }
    }

    @Override
    public synchronized void reject(byte[] privateData) {
        Arguments.notNull(privateData, "private data");
        state.expect(CmIdState.REQUEST);
        if (portSpace == PortSpace.UDP) {
            SidrExchange.checkReplyData(privateData);
        }
        CmDevice dev = route.dev;
        onIo(() -> {
            if (portSpace == PortSpace.UDP) {
                dev.cm().sidrReject(conn, privateData); // cma_send_sidr_rep(IB_SIDR_REJECT)
            } else {
                dev.cm().reject(conn, privateData);
            }
            dev.untrack(conn);
        });
        state = CmIdState.REJECTED;
    }

    @Override
    public synchronized void disconnect() {
        state.expect(CmIdState.ESTABLISHED, CmIdState.ACCEPTING, CmIdState.DISCONNECTED);
        rc.disconnect();
    }

    @Override
    public synchronized void joinMulticast(InetSocketAddress group, McJoinFlag flag) {
        Arguments.notNull(group, "group");
        Arguments.notNull(flag, "join flag");
        InetAddress address = group.getAddress();
        if (address == null || !address.isMulticastAddress()) {
            throw new InvalidAttributeException("not a multicast address: " + group);
        }
        if (portSpace != PortSpace.UDP) {
            throw new InvalidAttributeException("multicast needs an ID of the UDP port space, this one is " + portSpace);
        }
        // rdma_join_multicast: "ULP is expected to have resolved network" (ADDR_BOUND or ADDR_RESOLVED).
        state.expect(CmIdState.BOUND, CmIdState.ADDR_RESOLVED);
        multicast.checkJoin(address, route);
        // cma_iboe_set_mgid for RoCEv2 (IB_GID_TYPE_ROCE_UDP_ENCAP): ::ffff:<group> for IPv4, the address for IPv6.
        Gid mgid = Gid.of(address);
        // ucma_process_join attaches no QP for a send-only member, and cma_iboe_join_multicast sends no IGMP
        // report for it: the device's sockets take no membership.
        int status = multicast.join(address, mgid, flag == McJoinFlag.SENDONLY_FULLMEMBER ? null : qp,
            route.dev.device.name());
        events.post(status == 0 ? RdmaCmEventType.MULTICAST_JOIN : RdmaCmEventType.MULTICAST_ERROR, status, null, null, null,
            new RdmaUdParam(route.addressVector(mgid), MULTICAST_QPN, RDMA_UDP_QKEY));
    }

    @Override
    public synchronized void leaveMulticast(InetSocketAddress group) {
        Arguments.notNull(group, "group");
        if (state == CmIdState.CLOSED) {
            throw new ResourceClosedException("the RDMA CM ID is closed");
        }
        multicast.leave(group);
    }

    /** The registered device the ID is bound to, or null before an address is bound or resolved. */
    CmDevice cmDevice() {
        return route.dev;
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    @Override
    public RdmaDevice device() {
        CmDevice d = route.dev;
        return d == null ? null : d.device;
    }

    @Override
    public InetSocketAddress localAddress() {
        return route.local;
    }

    @Override
    public InetSocketAddress peerAddress() {
        return route.peer;
    }

    /**
     * rdma_destroy_id. Only events taken from the channel and not acknowledged hold it back (librdmacm's
     * rdma_destroy_id waits for events_completed to reach the events_reported the kernel returns); the
     * events still queued unread are discarded, as the kernel's ucma_destroy_id frees them
     * (ucma_cleanup_ctx_events), after the connection is ended so that none comes after.
     */
    @Override
    public synchronized void close() {
        if (state == CmIdState.CLOSED) {
            return;
        }
        int unacked = events.unacked();
        if (unacked > 0) {
            throw new ResourceBusyException(unacked + " event(s) of this ID were taken and not acknowledged;"
                + " ack them first");
        }
        if (state == CmIdState.LISTEN) {
            listening.stop(portSpace);
        }
        CmDevice dev = route.dev;
        if (dev != null && conn != null) {
            onIo(() -> {
                // The kernel's cm_destroy_id ends the connection (REJ, DREQ or DREP, and TimeWait) and tells
                // the peer; once untracked, the manager reports nothing more to this ID.
                dev.cm().destroy(conn);
                dev.untrack(conn);
            });
        }
        multicast.leaveAll(); // rdma_destroy_id leaves the ID's groups (cma_leave_mc_groups)
        state = CmIdState.CLOSED;
        channel.discard(this);
        channel.forget(this);
        route.release();
    }

    /** A connect request's ID the application never read: its request is refused, its events discarded. */
    void closeUnread() {
        CmDevice d = route.dev;
        CmIoThread.runIfOpen(d, () -> {
            d.cm().destroy(conn);
            d.untrack(conn);
        });
        state = CmIdState.CLOSED;
        channel.discard(this);
        channel.forget(this);
    }

    /** {@code cma_add_one}: a device registered while this wildcard listener listens. Any thread. */
    void listenOn(CmDevice d) {
        listening.listenOn(d);
    }

    /** A device this wildcard listener may listen on closed: it drops out. */
    void deviceClosed(CmDevice d) {
        listening.deviceClosed(d);
    }

    // The manager's events, on the I/O thread.

    /**
     * On a listener: a REQ for its service, arrived on {@code dev} (a wildcard listener's may come on
     * any device, each on its I/O thread); returns the new ID, or null when the REQ was refused.
     */
    SoftCmId onConnectRequest(CmDevice dev, CmConnection c, ConnectRequest r) {
        return listening.requests.onConnectRequest(dev, c, r);
    }

    /** On a UD listener: a SIDR_REQ for its service; returns the new ID, or null when it was refused. */
    SoftCmId onSidrRequest(CmDevice dev, CmConnection c, SidrRequest r) {
        return listening.requests.onSidrRequest(dev, c, r);
    }

    /** A CONNECT_REQUEST of this listener was taken from the channel: room for one more (ucma_get_event). */
    void requestTaken() {
        listening.requests.requestTaken();
    }

    /**
     * The ID of a connect request to {@code listener}, on the listener's channel, in REQUEST: bound to
     * {@code localGid} of {@code dev} and the listener's port, its peer at {@code peer}.
     */
    static SoftCmId forRequest(SoftCmId listener, CmDevice dev, Gid localGid, Gid peerGid, InetSocketAddress peer,
                               CmConnection c, ConnectRequest r) {
        SoftCmId child = new SoftCmId(listener.channel, listener.portSpace);
        child.route.useDevice(dev, localGid, listener.route.local.getPort());
        child.route.peerGid = peerGid;
        child.route.peer = peer;
        child.conn = c;
        child.rc.answering(r);
        child.state = CmIdState.REQUEST;
        listener.channel.adopt(child);
        return child;
    }

    /** The address this ID is bound to, or null for a wildcard's (none of its own). */
    Gid localGid() {
        return route.localGid;
    }

    void state(CmIdState s) {
        state = s;
    }

    SoftEventChannel eventChannel() {
        return channel;
    }

    private void requireQp() {
        if (qp == null) {
            throw new InvalidStateException("create the ID's QP (createQp) before connecting or accepting");
        }
    }

    /** Runs {@code task} on the device's I/O thread and waits; the manager's misuse exceptions become typed ones. */
    void onIo(Runnable task) {
        CmIoThread.run(route.dev, task);
    }
}
