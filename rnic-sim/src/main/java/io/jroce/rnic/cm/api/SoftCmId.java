package io.jroce.rnic.cm.api;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.cm.AcceptParams;
import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.CmState;
import io.jroce.rnic.cm.CmTimeouts;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.SidrParams;
import io.jroce.rnic.cm.SidrReply;
import io.jroce.rnic.cm.SidrRequest;
import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.McJoinFlag;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * An RDMA CM ID over a device's {@link io.jroce.rnic.cm.ConnectionManager}. The application's calls
 * check the ID's state, then run the manager's methods on the device's I/O thread and wait for them;
 * the manager's events arrive on the I/O thread (through {@link CmDevice}), move the QP as librdmacm
 * does ({@code ucma_process_conn_resp}, {@code rdma_accept}), and are queued to the channel.
 */
final class SoftCmId implements RdmaCmId {
    /**
     * The path MTU of a route without an SA: the kernel derives it from the netdev's MTU
     * ({@code cma_resolve_iboe_route}), 1024 for a 1500-byte Ethernet, which an rxe peer has; no
     * larger than this device's active MTU.
     */
    private static final Mtu ROUTE_MTU = Mtu.MTU_1024;
    /** UNREACHABLE's status, -ETIMEDOUT as librdmacm reports it. */
    static final int ETIMEDOUT = -110;
    static final int EINVAL = -22;
    /** The QPN a multicast group is addressed with (IB_MULTICAST_QPN), as MULTICAST_JOIN's ud param names it. */
    static final int MULTICAST_QPN = 0xFFFFFF;
    private static final int MAX_REQ_PRIVATE_DATA = ConnectParams.MAX_PRIVATE_DATA - CmaHeaderFlyweight.LENGTH;
    /** A SIDR_REQ's 216 bytes of private data less the RDMA CM header: 180 ({@code cma_user_data_offset}). */
    private static final int MAX_SIDR_REQ_PRIVATE_DATA = SidrParams.MAX_PRIVATE_DATA - CmaHeaderFlyweight.LENGTH;
    /** The Q_Key of the UDP port space ({@code RDMA_UDP_QKEY}, cma.c {@code cma_set_default_qkey}). */
    static final int RDMA_UDP_QKEY = 0x01234567;
    /**
     * The largest backlog, and the one a backlog of 0 or less gets: ucma.c's {@code max_backlog}
     * (sysctl net.rdma_ucm.max_backlog, 1024 by default), which {@code ucma_listen} applies the same way.
     */
    static final int MAX_BACKLOG = 1024;
    /** An option not set with rdma_set_option. */
    private static final int UNSET = -1;
    /** The traffic class of a RoCE route without rdma_set_option TOS (cma.c {@code default_roce_tos}, 0). */
    private static final int DEFAULT_ROCE_TOS = 0;

    private enum State { IDLE, BOUND, ADDR_RESOLVED, ROUTE_RESOLVED, LISTEN, CONNECTING, REQUEST, ACCEPTING,
        ESTABLISHED, DISCONNECTED, REJECTED, CLOSED }

    /** Changed only by {@link #migrate}, before any event of the new channel's. */
    private volatile SoftEventChannel channel;
    private final PortSpace portSpace;
    private final AtomicInteger unacked = new AtomicInteger();
    private volatile State state = State.IDLE;
    private volatile CmDevice dev;
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress peer;
    private volatile QueuePair qp;
    private Gid localGid;
    private Gid peerGid;
    private int sgidIndex;
    private Mtu pathMtu;
    /** rdma_set_option TOS, or {@link #UNSET}; the next route's traffic class. */
    private int typeOfService = UNSET;
    /** rdma_set_option ACK_TIMEOUT, or {@link #UNSET}. */
    private int ackTimeout = UNSET;
    /** The resolved route's traffic class and packet life time ({@code cma_resolve_iboe_route}). */
    private int routeTrafficClass;
    private int routePacketLifeTime = CmTimeouts.PACKET_LIFE_TIME;
    /** The PSN this side's QP expects first, carried in its REQ or REP. */
    private int psn;
    private ConnParam param;
    private CmConnection conn;
    private ConnectRequest request;
    private ConnParam peerParam;
    private byte[] peerPrivateData;
    private boolean disconnectCalled;
    /** A listener's connect requests: its backlog, and a new ID for each. */
    private final ListenerRequests requests = new ListenerRequests(this);
    /** The port the ID holds ({@link CmPorts}), or null: none yet, or a connect request's ID. */
    private volatile CmPorts.Binding binding;
    /** A wildcard listener's listening on every device, or null: not a wildcard, or not listening. */
    private volatile WildcardListener wildcardListener;
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
        expect(State.REQUEST, State.IDLE, State.BOUND, State.ADDR_RESOLVED, State.ROUTE_RESOLVED);
        SoftEventChannel from = channel;
        to.adopt(this);
        channel = to;
        from.forget(this);
    }

    @Override
    public synchronized void bindAddr(InetSocketAddress address) {
        expect(State.IDLE);
        Arguments.notNull(address, "address");
        if (address.getAddress() == null) {
            throw new InvalidAttributeException("bind a local address of an open jroce device or a wildcard, not "
                + address);
        }
        if (address.getAddress().isAnyLocalAddress()) {
            // cma_bind_addr on an any address: a port and no device; listen takes every device's REQs.
            binding = CmPorts.bind(this, portSpace, address.getPort(), true);
            local = new InetSocketAddress(address.getAddress(), binding.port);
            state = State.BOUND;
            return;
        }
        CmDevice d = CmDevices.owning(address.getAddress());
        if (d == null) {
            throw new InvalidAttributeException("no open jroce device owns " + address.getAddress().getHostAddress());
        }
        binding = CmPorts.bind(this, portSpace, address.getPort(), false);
        useDevice(d, Gid.of(address.getAddress()), binding.port);
        state = State.BOUND;
    }

    /** Bound to 0.0.0.0 or :: (and not resolved since): no device of its own. */
    private boolean wildcard() {
        return dev == null && local != null;
    }

    boolean isListening() {
        return state == State.LISTEN;
    }

    @Override
    public synchronized void listen(int backlog) {
        expect(State.BOUND);
        long serviceId = portSpace.serviceId(local.getPort());
        // ucma_listen: a backlog of 0 or less, or above the maximum, is the maximum.
        requests.backlog(backlog <= 0 || backlog > MAX_BACKLOG ? MAX_BACKLOG : backlog);
        if (wildcard()) {
            wildcardListener = new WildcardListener(this, portSpace, local);
            try {
                wildcardListener.listenOnAll();
            } catch (InvalidStateException e) {
                stopListening();
                throw e;
            }
            state = State.LISTEN;
            return;
        }
        try {
            onIo(() -> dev.listen(serviceId, this));
        } catch (InvalidStateException e) {
            throw new InvalidStateException("port " + local.getPort() + " of " + portSpace + " is already listened on "
                + dev.device.name(), e);
        }
        state = State.LISTEN;
    }

    @Override
    public synchronized void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMs) {
        Arguments.notNull(destination, "destination");
        if (destination.getAddress() == null) {
            throw new InvalidAttributeException("unresolved destination " + destination);
        }
        if (source != null && state == State.IDLE) {
            bindAddr(source);
        }
        expect(State.IDLE, State.BOUND);
        boolean v4 = destination.getAddress() instanceof Inet4Address;
        if (dev == null) {
            if (wildcard() && (local.getAddress() instanceof Inet4Address) != v4) {
                throw new InvalidAttributeException("bound to " + local + ", the destination " + destination
                    + " is of the other address family");
            }
            CmDevice d = CmDevices.reaching(destination.getAddress());
            if (d == null) {
                throw new InvalidAttributeException("no open jroce device reaches "
                    + destination.getAddress().getHostAddress());
            }
            if (binding == null) {
                binding = CmPorts.bind(this, portSpace, 0, false);
            } else {
                CmPorts.specify(binding); // the wildcard's port, now with a source address
            }
            useDevice(d, d.sourceFor(v4), binding.port);
        } else if (localGid.isIpv4Mapped() != v4) {
            throw new InvalidAttributeException("source " + local + " and destination " + destination
                + " are not of one address family");
        }
        peer = destination;
        peerGid = Gid.of(destination.getAddress());
        state = State.ADDR_RESOLVED;
        post(RdmaCmEventType.ADDR_RESOLVED, 0, null, null);
    }

    @Override
    public synchronized void setOption(RdmaCmOption option, int value) {
        Arguments.notNull(option, "option");
        expect(State.values());
        switch (option) {
            case TOS -> {
                if (value < 0 || value > 255) {
                    throw new InvalidAttributeException("the type of service is a byte, 0..255, got " + value);
                }
                typeOfService = value; // rdma_set_service_type: any state; the next route takes it
            }
            case ACK_TIMEOUT -> {
                if (portSpace == PortSpace.UDP) {
                    // rdma_set_ack_timeout: RC (and XRC initiator) IDs only, else EINVAL
                    throw new InvalidAttributeException("the ACK timeout applies to RC IDs, not to an ID of the UDP"
                        + " port space");
                }
                if (value < 0 || value > 31) {
                    throw new InvalidAttributeException("the ACK timeout is a 5-bit exponent, 0..31, got " + value);
                }
                ackTimeout = value;
            }
            default -> throw new IllegalStateException("unhandled option " + option);
        }
    }

    @Override
    public synchronized void resolveRoute(int timeoutMs) {
        expect(State.ADDR_RESOLVED);
        Mtu active = dev.device.portActiveMtu();
        pathMtu = active.bytes() < ROUTE_MTU.bytes() ? active : ROUTE_MTU;
        // cma_resolve_iboe_route: the traffic class is the ID's type of service; an ACK timeout set (and not
        // 0) makes the packet life time timeout - 1 (IBTA 12.7.34: ACK timeout about twice the packet life).
        routeTrafficClass = typeOfService != UNSET ? typeOfService : DEFAULT_ROCE_TOS;
        routePacketLifeTime = ackTimeout > 0 ? ackTimeout - 1 : CmTimeouts.PACKET_LIFE_TIME;
        state = State.ROUTE_RESOLVED;
        post(RdmaCmEventType.ROUTE_RESOLVED, 0, null, null);
    }

    @Override
    public synchronized QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes) {
        Arguments.notNull(pd, "protection domain");
        Arguments.notNull(attributes, "QP init attributes");
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
        expect(State.ROUTE_RESOLVED);
        requireQp();
        byte[] user = p.privateData();
        int max = portSpace == PortSpace.UDP ? MAX_SIDR_REQ_PRIVATE_DATA : MAX_REQ_PRIVATE_DATA;
        if (user.length > max) {
            throw new InvalidAttributeException("a " + (portSpace == PortSpace.UDP ? "SIDR_REQ" : "REQ")
                + " carries at most " + max + " bytes of private data after the RDMA CM header, got " + user.length);
        }
        // cma_format_hdr: the header, then the consumer's private data.
        byte[] privateData = new byte[CmaHeaderFlyweight.LENGTH + user.length];
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(privateData), 0);
        h.cmaVersion(CmaHeaderFlyweight.CMA_VERSION).ipVersion(localGid.isIpv4Mapped() ? 4 : 6).port(local.getPort());
        CmaAddresses.write(privateData, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, localGid);
        CmaAddresses.write(privateData, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, peerGid);
        System.arraycopy(user, 0, privateData, CmaHeaderFlyweight.LENGTH, user.length);
        param = p;
        if (portSpace == PortSpace.UDP) {
            connectUd(privateData);
            return;
        }
        psn = ThreadLocalRandom.current().nextInt(0x1000000);
        ConnectParams cp = new ConnectParams(portSpace.serviceId(peer.getPort()), localGid.toBytes(), peerGid.toBytes(),
            qp.qpNum(), psn, p.responderResources(), p.initiatorDepth(), clamp(p.retryCount()),
            clamp(p.rnrRetryCount()), pathMtu.enumValue(), privateData, routeTrafficClass, routePacketLifeTime);
        // Before the REQ leaves: its answer may come back before onIo returns.
        state = State.CONNECTING;
        try {
            onIo(() -> {
                conn = dev.cm().connect(cp, dev);
                dev.track(conn, this);
            });
        } catch (RuntimeException e) {
            state = State.ROUTE_RESOLVED;
            throw e;
        }
    }

    /** cma_resolve_ib_udp: a SIDR_REQ for the peer's port in the UDP port space. */
    private void connectUd(byte[] privateData) {
        SidrParams sp = new SidrParams(portSpace.serviceId(peer.getPort()), localGid.toBytes(), peerGid.toBytes(),
            privateData);
        state = State.CONNECTING;
        try {
            onIo(() -> {
                conn = dev.cm().sidrRequest(sp, dev);
                dev.track(conn, this);
            });
        } catch (RuntimeException e) {
            state = State.ROUTE_RESOLVED;
            throw e;
        }
    }

    @Override
    public synchronized void accept(ConnParam p) {
        Arguments.notNull(p, "connection parameters");
        expect(State.REQUEST);
        requireQp();
        if (portSpace == PortSpace.UDP) {
            acceptUd(p.privateData());
            return;
        }
        if (p.privateData().length > AcceptParams.MAX_PRIVATE_DATA) {
            throw new InvalidAttributeException("a REP carries at most " + AcceptParams.MAX_PRIVATE_DATA
                + " bytes of private data, got " + p.privateData().length);
        }
        param = p;
        psn = ThreadLocalRandom.current().nextInt(0x1000000);
        onIo(() -> {
            if (conn.state() != CmState.REQ_RCVD && conn.state() != CmState.MRA_REQ_SENT) {
                // The peer withdrew the request (its REJ is queued for this ID): nothing to accept.
                throw new InvalidStateException("the connect request was withdrawn by the peer (" + conn.state() + ")");
            }
            try {
                // rdma_accept: the QP to RTR and RTS before the REP. A path MTU code beyond the largest MTU
                // (4096, code 5) cannot bring the QP to RTR (rxe_qp_chk_attr compares it with max_mtu);
                // within it, the QP runs at the smaller of it and the port's active MTU, as rxe's does.
                Mtu asked = pathMtuOf(request.pathMtu());
                Mtu mtu = asked.bytes() < dev.device.portActiveMtu().bytes() ? asked : dev.device.portActiveMtu();
                toRtr(request.remoteQpn(), mtu, p.responderResources(), request.trafficClass());
                // cm_format_path_from_req: the path's packet life time is the REQ's local ACK timeout - 1
                // (not below 0), the QP's ACK timeout that + 1 (cm_init_av_by_path), unless the ID set one
                int fromReq = Math.max(request.localAckTimeout() - 1, 0) + 1;
                toRts(request.startingPsn(), clamp(request.retryCount()), clamp(request.rnrRetryCount()),
                    p.initiatorDepth(), ackTimeout != UNSET ? ackTimeout : fromReq);
            } catch (VerbsException e) {
                // The CMA's own failure: REJ consumer defined.
                dev.cm().reject(conn, new byte[0]);
                dev.untrack(conn);
                state = State.REJECTED;
                throw e;
            }
            dev.cm().accept(conn, new AcceptParams(qp.qpNum(), psn, p.responderResources(), p.initiatorDepth(),
                clamp(p.rnrRetryCount()), p.privateData()));
            state = State.ACCEPTING;
        });
    }

    /**
     * rdma_accept on a UD ID ({@code cma_send_sidr_rep}): a SIDR_REP of status 0 naming this ID's QP and
     * the port space's Q_Key. The passive side hears nothing more (no ESTABLISHED, as librdmacm).
     */
    private void acceptUd(byte[] privateData) {
        if (privateData.length > CmSidrRepFlyweight.PRIVATE_DATA_LENGTH) {
            throw new InvalidAttributeException("a SIDR_REP carries at most " + CmSidrRepFlyweight.PRIVATE_DATA_LENGTH
                + " bytes of private data, got " + privateData.length);
        }
        onIo(() -> {
            if (conn.state() != CmState.SIDR_REQ_RCVD) {
                throw new InvalidStateException("the SIDR request was already answered (" + conn.state() + ")");
            }
            dev.cm().sidrAccept(conn, qp.qpNum(), RDMA_UDP_QKEY, privateData);
            dev.untrack(conn);
        });
        state = State.ESTABLISHED;
    }

    @Override
    public synchronized void reject(byte[] privateData) {
        Arguments.notNull(privateData, "private data");
        expect(State.REQUEST);
        if (portSpace == PortSpace.UDP && privateData.length > CmSidrRepFlyweight.PRIVATE_DATA_LENGTH) {
            throw new InvalidAttributeException("a SIDR_REP carries at most " + CmSidrRepFlyweight.PRIVATE_DATA_LENGTH
                + " bytes of private data, got " + privateData.length);
        }
        onIo(() -> {
            if (portSpace == PortSpace.UDP) {
                dev.cm().sidrReject(conn, privateData); // cma_send_sidr_rep(IB_SIDR_REJECT)
            } else {
                dev.cm().reject(conn, privateData);
            }
            dev.untrack(conn);
        });
        state = State.REJECTED;
    }

    /** The REQ's path MTU code as an MTU; an invalid code fails as Modify QP to RTR would. */
    private static Mtu pathMtuOf(int code) {
        if (code < Mtu.MTU_256.enumValue() || code > Mtu.MTU_4096.enumValue()) {
            throw new InvalidAttributeException("the REQ's path MTU code " + code
                + " is no MTU of 256..4096 bytes: the QP cannot reach RTR");
        }
        return Mtu.fromEnum(code);
    }

    @Override
    public synchronized void disconnect() {
        expect(State.ESTABLISHED, State.ACCEPTING, State.DISCONNECTED);
        if (disconnectCalled) {
            throw new InvalidStateException("rdma_disconnect was already called on this ID");
        }
        disconnectCalled = true;
        // cma_modify_qp_err: outstanding work completes flushed before the peer hears of it.
        if (qp != null && qp.state() != QpState.ERR && qp.state() != QpState.RESET) {
            qp.modify(new QpAttributes().state(QpState.ERR));
        }
        // rdma_disconnect sends a DREQ, or the DREP to one received; when neither applies (the peer's DREP
        // or a DREQ retry expiry already ended it, or a stale REQ made this side send the DREQ) it sends
        // nothing and succeeds.
        onIo(() -> {
            switch (conn.state()) {
                case ESTABLISHED, REP_SENT, MRA_REP_RCVD, DREQ_RCVD -> dev.cm().disconnect(conn);
                default -> {
                }
            }
        });
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
        expect(State.BOUND, State.ADDR_RESOLVED);
        if (dev == null) {
            // A wildcard bind names no device (the kernel's rdma_join_multicast fails without id->device).
            throw new InvalidStateException("an ID bound to the wildcard " + local + " has no device to join "
                + address.getHostAddress() + " on: bind an address of a device, or resolve one");
        }
        if (localGid.isIpv4Mapped() != address instanceof java.net.Inet4Address) {
            throw new InvalidAttributeException("group " + address.getHostAddress() + " and the ID's address " + local
                + " are not of one address family");
        }
        if (multicast.joined(address)) {
            throw new InvalidStateException("the ID already joined " + address.getHostAddress());
        }
        // cma_iboe_set_mgid for RoCEv2 (IB_GID_TYPE_ROCE_UDP_ENCAP): ::ffff:<group> for IPv4, the address for IPv6.
        Gid mgid = Gid.of(address);
        // ucma_process_join attaches no QP for a send-only member, and cma_iboe_join_multicast sends no IGMP
        // report for it: the device's sockets take no membership.
        int status = multicast.join(address, mgid, flag == McJoinFlag.SENDONLY_FULLMEMBER ? null : qp,
            dev.device.name());
        AddressVector av = new AddressVector().destGid(mgid).sgidIndex(sgidIndex).udpPort(dev.peerUdpPort);
        post(status == 0 ? RdmaCmEventType.MULTICAST_JOIN : RdmaCmEventType.MULTICAST_ERROR, status, null, null, null,
            new RdmaUdParam(av, MULTICAST_QPN, RDMA_UDP_QKEY));
    }

    @Override
    public synchronized void leaveMulticast(InetSocketAddress group) {
        Arguments.notNull(group, "group");
        if (state == State.CLOSED) {
            throw new ResourceClosedException("the RDMA CM ID is closed");
        }
        multicast.leave(group);
    }

    /** The registered device the ID is bound to, or null before an address is bound or resolved. */
    CmDevice cmDevice() {
        return dev;
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    @Override
    public RdmaDevice device() {
        CmDevice d = dev;
        return d == null ? null : d.device;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public InetSocketAddress peerAddress() {
        return peer;
    }

    @Override
    public synchronized void close() {
        if (state == State.CLOSED) {
            return;
        }
        if (unacked.get() > 0) {
            throw new ResourceBusyException(unacked.get() + " event(s) of this ID are not acknowledged; ack them first");
        }
        if (state == State.LISTEN) {
            stopListening();
        }
        if (dev != null && conn != null) {
            onIo(() -> {
                // rdma_destroy_id: the kernel's cm_destroy_id ends the connection (REJ, DREQ or DREP, and
                // TimeWait); only forgetting it here left the manager holding it and the peer waiting.
                dev.cm().destroy(conn);
                dev.untrack(conn);
                dev.cm().destroy(conn); // rdma_destroy_id: ib_destroy_cm_id tells the peer (cm_destroy_id)
            });
        }
        multicast.leaveAll(); // rdma_destroy_id leaves the ID's groups (cma_leave_mc_groups)
        state = State.CLOSED;
        channel.forget(this);
        if (binding != null) {
            CmPorts.release(binding);
        }
    }

    /**
     * Stops listening on the ID's device, or a wildcard's on every device (a closed one has dropped out);
     * then, as ucma_destroy_private_ctx, the requests the application never read die with the listener
     * (REJ 28), instead of staying in the manager with nobody to answer them.
     */
    private void stopListening() {
        long serviceId = portSpace.serviceId(local.getPort());
        List<CmDevice> devices;
        if (wildcard()) {
            devices = wildcardListener.stop();
        } else {
            devices = List.of(dev);
        }
        for (CmDevice d : devices) {
            CmIoThread.runIfOpen(d, () -> d.stopListening(serviceId));
        }
        // No device reports a REQ to this listener any more: what is queued is all there is.
        for (SoftCmId child : channel.withdrawRequests(this)) {
            CmDevice d = child.dev;
            CmIoThread.runIfOpen(d, () -> {
                d.cm().destroy(child.conn);
                d.untrack(child.conn);
            });
            child.state = State.CLOSED;
            channel.forget(child);
        }
    }

    /** {@code cma_add_one}: a device registered while this wildcard listener listens. Any thread. */
    void listenOn(CmDevice d) {
        wildcardListener.listenOn(d);
    }

    /** A device this wildcard listener may listen on closed: it drops out. */
    void deviceClosed(CmDevice d) {
        wildcardListener.deviceClosed(d);
    }

    // The manager's events, on the I/O thread.

    /**
     * On a listener: a REQ for its service, arrived on {@code dev} (a wildcard listener's may come on
     * any device, each on its I/O thread); returns the new ID, or null when the REQ was refused.
     */
    SoftCmId onConnectRequest(CmDevice dev, CmConnection c, ConnectRequest r) {
        return requests.onConnectRequest(dev, c, r);
    }

    /** On a UD listener: a SIDR_REQ for its service; returns the new ID, or null when it was refused. */
    SoftCmId onSidrRequest(CmDevice dev, CmConnection c, SidrRequest r) {
        return requests.onSidrRequest(dev, c, r);
    }

    /** A CONNECT_REQUEST of this listener was taken from the channel: room for one more (ucma_get_event). */
    void requestTaken() {
        requests.requestTaken();
    }

    /**
     * The ID of a connect request to {@code listener}, on the listener's channel, in REQUEST: bound to
     * {@code localGid} of {@code dev} and the listener's port, its peer at {@code peer}.
     */
    static SoftCmId forRequest(SoftCmId listener, CmDevice dev, Gid localGid, Gid peerGid, InetSocketAddress peer,
                               CmConnection c, ConnectRequest r) {
        SoftCmId child = new SoftCmId(listener.channel, listener.portSpace);
        child.useDevice(dev, localGid, listener.local.getPort());
        child.peerGid = peerGid;
        child.peer = peer;
        child.conn = c;
        child.request = r;
        child.state = State.REQUEST;
        listener.channel.adopt(child);
        return child;
    }

    /** Reports this request's ID to the application: CONNECT_REQUEST, naming {@code listener}. */
    void postConnectRequest(SoftCmId listener, byte[] privateData, ConnParam theirs) {
        post(RdmaCmEventType.CONNECT_REQUEST, 0, listener, privateData, theirs);
    }

    /** The address this ID is bound to, or null for a wildcard's (none of its own). */
    Gid localGid() {
        return localGid;
    }

    /**
     * Active UD: the SIDR_REP arrived ({@code cma_sidr_rep_handler}): status 0 is ESTABLISHED with the
     * peer's address, QP and Q_Key; any other status UNREACHABLE with the status as the event's. A Q_Key
     * other than the ID's (set with its QP, {@code cma_set_qkey}) is ADDR_ERROR, -EINVAL.
     */
    void onSidrReply(SidrReply r) {
        if (r.status() != CmSidrRepFlyweight.STATUS_SUCCESS) {
            state = State.REJECTED;
            post(RdmaCmEventType.UNREACHABLE, r.status(), null, r.privateData(), null, null);
            return;
        }
        if (r.qKey() != RDMA_UDP_QKEY) {
            state = State.REJECTED;
            post(RdmaCmEventType.ADDR_ERROR, EINVAL, null, r.privateData(), null, null);
            return;
        }
        state = State.ESTABLISHED;
        // cma_sidr_rep_handler: the address handle from the route, its traffic class included
        AddressVector av = new AddressVector().destGid(peerGid).sgidIndex(sgidIndex).udpPort(dev.peerUdpPort)
            .trafficClass(routeTrafficClass);
        post(RdmaCmEventType.ESTABLISHED, 0, null, r.privateData(), null, new RdmaUdParam(av, r.qpn(), r.qKey()));
    }

    /** Active: the REP arrived; as librdmacm on CONNECT_RESPONSE: RTR, RTS, then the RTU. */
    void onReply(ConnectReply r) {
        try {
            toRtr(r.remoteQpn(), pathMtu, r.responderResources(), routeTrafficClass);
            // cm_init_av_by_path: the path's packet life time + 1; rdma_init_qp_attr: the ID's, if set
            toRts(r.startingPsn(), clamp(param.retryCount()), clamp(r.rnrRetryCount()), r.initiatorDepth(),
                ackTimeout != UNSET ? ackTimeout : routePacketLifeTime + 1);
        } catch (VerbsException e) {
            dev.cm().reject(conn, new byte[0]);
            dev.untrack(conn);
            state = State.REJECTED;
            post(RdmaCmEventType.CONNECT_ERROR, EINVAL, null, null);
            return;
        }
        peerParam = new ConnParam().responderResources(r.responderResources()).initiatorDepth(r.initiatorDepth())
            .rnrRetryCount(r.rnrRetryCount());
        peerPrivateData = r.privateData();
        dev.cm().ready(conn); // reports onEstablished
    }

    void onEstablished() {
        state = State.ESTABLISHED;
        post(RdmaCmEventType.ESTABLISHED, 0, peerPrivateData, peerParam);
    }

    void onRejected(int reason) {
        state = State.REJECTED;
        post(RdmaCmEventType.REJECTED, reason, null, null);
    }

    void onUnreachable() {
        state = State.REJECTED;
        post(RdmaCmEventType.UNREACHABLE, ETIMEDOUT, null, null);
    }

    void onDisconnected() {
        state = State.DISCONNECTED;
        post(RdmaCmEventType.DISCONNECTED, 0, null, null);
    }

    void onTimeWaitExit() {
        post(RdmaCmEventType.TIMEWAIT_EXIT, 0, null, null);
    }

    // Helpers.

    private void toRtr(int remoteQpn, Mtu mtu, int responderResources, int trafficClass) {
        CmQpTransitions.toRtr(qp, remoteQpn, mtu, responderResources, psn,
            new AddressVector().destGid(peerGid).sgidIndex(sgidIndex).udpPort(dev.peerUdpPort).trafficClass(trafficClass));
    }

    private void toRts(int sqPsn, int retryCount, int rnrRetry, int initiatorDepth, int timeout) {
        CmQpTransitions.toRts(qp, sqPsn, retryCount, rnrRetry, initiatorDepth, timeout);
    }

    private void useDevice(CmDevice d, Gid gid, int port) {
        dev = d;
        localGid = gid;
        sgidIndex = d.gidIndex(gid);
        local = new InetSocketAddress(gid.toInetAddress(), port);
    }

    private void post(RdmaCmEventType type, int status, byte[] privateData, ConnParam connParam) {
        post(type, status, null, privateData, connParam);
    }

    private void post(RdmaCmEventType type, int status, SoftCmId listenId, byte[] privateData, ConnParam connParam) {
        post(type, status, listenId, privateData, connParam, null);
    }

    private void post(RdmaCmEventType type, int status, SoftCmId listenId, byte[] privateData, ConnParam connParam,
                      RdmaUdParam udParam) {
        unacked.incrementAndGet();
        channel.post(new RdmaCmEvent(type, status, this, listenId, privateData, connParam, udParam,
            unacked::decrementAndGet));
    }

    private void requireQp() {
        if (qp == null) {
            throw new InvalidStateException("create the ID's QP (createQp) before connecting or accepting");
        }
    }

    private void expect(State... allowed) {
        State s = state;
        if (s == State.CLOSED) {
            throw new ResourceClosedException("the RDMA CM ID is closed");
        }
        for (State a : allowed) {
            if (s == a) {
                return;
            }
        }
        throw new InvalidStateException("the ID is " + s + ", the call needs " + Arrays.toString(allowed));
    }

    /** Runs {@code task} on the device's I/O thread and waits; the manager's misuse exceptions become typed ones. */
    private void onIo(Runnable task) {
        CmIoThread.run(dev, task);
    }

    private static int clamp(int count) {
        return Math.max(0, Math.min(7, count));
    }
}
