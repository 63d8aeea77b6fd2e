package io.jroce.verbs.cm;

import java.net.InetSocketAddress;

import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;

/**
 * {@code struct rdma_cm_id} (rdma_cma.h): one side of one connection, or a listener. Calls that start
 * something on the network return at once; the outcome comes as an event on the ID's channel.
 * Misuse throws: {@link io.jroce.verbs.InvalidStateException} for a call out of order,
 * {@link io.jroce.verbs.InvalidAttributeException} for a bad argument, naming the problem.
 */
public interface RdmaCmId extends AutoCloseable {
    /**
     * The port space the ID was created in.
     *
     * @return TCP (RC connections) or UDP (UD services)
     */
    PortSpace portSpace();

    /**
     * The channel that delivers this ID's events.
     *
     * @return the channel it was created on
     */
    RdmaEventChannel channel();

    /**
     * {@code rdma_bind_addr}: the local address (an address of an open device, or the wildcard 0.0.0.0 or ::,
     * which binds no device: {@link #listen} then takes the requests of every device) and port (0: any).
     *
     * @param address the local address and port
     */
    void bindAddr(InetSocketAddress address);

    /**
     * {@code rdma_set_option(id, RDMA_OPTION_ID, option, &value, 1)}: applied as the kernel applies
     * it (see {@link RdmaCmOption}); in any state before {@link #close}, as the kernel takes it.
     *
     * @param option the option
     * @param value  its value
     * @throws io.jroce.verbs.InvalidAttributeException a null option, a value out of the option's range
     *                                                  (TOS 0..255, ACK timeout 0..31), or the ACK
     *                                                  timeout on an ID of the UDP port space (EINVAL)
     * @throws io.jroce.verbs.ResourceClosedException   the ID is closed
     */
    void setOption(RdmaCmOption option, int value);

    /**
     * {@code rdma_listen}: takes connect requests to the bound address's port; reported as CONNECT_REQUEST.
     *
     * @param backlog how many requests may wait to be accepted or rejected
     */
    void listen(int backlog);

    /**
     * {@code rdma_resolve_addr}: picks the device and source address to reach {@code destination} (its
     * port is the peer's listening port); ADDR_RESOLVED follows.
     *
     * @param source      null, or the local address to use (as rdma_bind_addr)
     * @param destination the peer's address and listening port
     * @param timeoutMs   how long resolution may take before ADDR_ERROR
     */
    void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMs);

    /**
     * {@code rdma_resolve_route}: the path to the resolved destination; ROUTE_RESOLVED follows.
     *
     * @param timeoutMs how long resolution may take before ROUTE_ERROR
     */
    void resolveRoute(int timeoutMs);

    /**
     * {@code rdma_create_qp}: an RC QP on {@code pd} (of this ID's device), moved to INIT; for
     * {@link PortSpace#UDP} a UD QP, moved through INIT (Q_Key 0x01234567) to RTS as librdmacm does.
     *
     * @param pd         a protection domain of this ID's device
     * @param attributes the QP's CQs and sizes (the type follows the port space)
     * @return the QP, also {@link #qp()}
     */
    QueuePair createQp(ProtectionDomain pd, QpInitAttributes attributes);

    /**
     * {@code rdma_connect}: sends the REQ; ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR follows.
     * On a {@link PortSpace#UDP} ID it sends a SIDR_REQ: ESTABLISHED (with {@link RdmaCmEvent#udParam()})
     * or UNREACHABLE follows.
     *
     * @param param what the REQ carries
     */
    void connect(ConnParam param);

    /**
     * {@code rdma_accept}: moves the QP to RTR and RTS and sends the REP; ESTABLISHED follows the RTU.
     * On a {@link PortSpace#UDP} ID it sends the SIDR_REP naming the ID's UD QP; no event follows.
     *
     * @param param what the REP carries
     */
    void accept(ConnParam param);

    /**
     * {@code rdma_reject}: answers a CONNECT_REQUEST with REJ reason 28 (consumer defined); on a
     * {@link PortSpace#UDP} ID with a SIDR_REP of status 2 (rejected).
     *
     * @param privateData what the REJ carries, empty for nothing (not null)
     */
    void reject(byte[] privateData);

    /** {@code rdma_disconnect}: the QP to ERR, then a DREQ (or the DREP to the peer's DREQ). */
    void disconnect();

    /**
     * {@code rdma_join_multicast} on a {@link PortSpace#UDP} ID bound to or resolved from an address:
     * joins the IP multicast group {@code group} (the port is ignored) as the kernel does on RoCE, with
     * no MADs. MULTICAST_JOIN follows, whose {@link RdmaCmEvent#udParam()} holds the address vector to
     * the group (destination GID the MGID: {@code ::ffff:<group>} for IPv4, the address itself for
     * IPv6), QPN 0xFFFFFF and Q_Key 0x01234567. The ID's QP, if it has one, is attached to the MGID
     * (ibv_attach_mcast, as librdmacm does when it takes the event), which makes the device join the
     * group on its sockets; MULTICAST_ERROR instead when that fails.
     *
     * @param group the group's IP address (the port is ignored)
     * @throws io.jroce.verbs.InvalidAttributeException not a multicast address, not of the ID's
     *                                                  address family, or not a UDP ID
     * @throws io.jroce.verbs.InvalidStateException     the ID has no bound or resolved address, or
     *                                                  already joined {@code group}
     */
    default void joinMulticast(InetSocketAddress group) {
        joinMulticast(group, McJoinFlag.FULLMEMBER);
    }

    /**
     * {@code rdma_join_multicast_ex} with {@code join_flags} {@code flag}: as {@link
     * #joinMulticast(InetSocketAddress)} for {@link McJoinFlag#FULLMEMBER}; for {@link
     * McJoinFlag#SENDONLY_FULLMEMBER} the same MULTICAST_JOIN (the address vector to send to the
     * group), but the ID's QP is not attached and the device does not join the IP group (no IGMP/MLD,
     * as the kernel on RoCE): the ID sends to the group and receives nothing from it.
     *
     * @param group the group's IP address (the port is ignored)
     * @param flag  how to join
     * @throws io.jroce.verbs.InvalidAttributeException a null flag, or as {@link #joinMulticast(InetSocketAddress)}
     * @throws io.jroce.verbs.InvalidStateException     as {@link #joinMulticast(InetSocketAddress)}
     */
    void joinMulticast(InetSocketAddress group, McJoinFlag flag);

    /**
     * {@code rdma_leave_multicast}: detaches the ID's QP from the group (ibv_detach_mcast) and leaves
     * it; no event. {@link #close} leaves every group the ID joined.
     *
     * @param group the group's IP address
     * @throws io.jroce.verbs.InvalidAttributeException the ID did not join {@code group} (EADDRNOTAVAIL)
     */
    void leaveMulticast(InetSocketAddress group);

    /**
     * The ID's QP.
     *
     * @return the QP, or null before {@link #createQp}
     */
    QueuePair qp();

    /**
     * The device the ID is bound to.
     *
     * @return the device, or null before an address is bound or resolved, or when bound to a wildcard
     */
    RdmaDevice device();

    /**
     * The local address and port.
     *
     * @return the address, or null before one is bound or resolved
     */
    InetSocketAddress localAddress();

    /**
     * The peer's address and port.
     *
     * @return the address, or null before one is resolved or a request arrived
     */
    InetSocketAddress peerAddress();

    /**
     * {@code rdma_destroy_id}: stops listening, forgets the connection (disconnect first to tell the
     * peer), and discards the ID's events still queued on its channel, which then never come out of it.
     * The QP is the caller's to close.
     *
     * @throws io.jroce.verbs.ResourceBusyException while events of this ID taken from the channel are not
     *     acknowledged
     */
    @Override
    void close();
}
