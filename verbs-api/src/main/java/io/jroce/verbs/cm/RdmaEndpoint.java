package io.jroce.verbs.cm;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WorkCompletion;

/**
 * librdmacm's convenience layer: an {@code rdma_cm_id} made by {@code rdma_create_ep} without an
 * event channel, whose calls are synchronous (they wait for their event), with the memory and data
 * helpers of {@code rdma_verbs.h}. Made by {@code RdmaCm.createEp} (rnic-sim); see docs/cm-guide.md.
 *
 * <p>Every blocking call waits at most {@link #timeout()} ({@link #DEFAULT_TIMEOUT} unless changed);
 * CM failures throw {@link ConnectionRejectedException} (the REJ's reason),
 * {@link ConnectionTimeoutException} (UNREACHABLE, or nothing within the bound) or
 * {@link RdmaCmException} (another event, e.g. the peer disconnected while waiting); misuse throws
 * {@link io.jroce.verbs.InvalidStateException} or {@link io.jroce.verbs.InvalidAttributeException}.
 *
 * <p>The data helpers post one work request of one scatter/gather entry, {@code length} bytes at
 * {@code offset} of {@code mr}, reusing one request object per queue: they allocate nothing.
 */
public interface RdmaEndpoint extends AutoCloseable {
    /**
     * The bound of every blocking call unless {@link #timeout(Duration)} changes it: 120 s, longer than
     * the CM's own give-up time for a REQ (16 sends 6144 ms apart), so that its UNREACHABLE comes first.
     */
    Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    /**
     * {@code rdma_listen} on a passive endpoint; connect requests are taken with {@link #getRequest()}.
     *
     * @param backlog how many requests may wait to be taken
     */
    void listen(int backlog);

    /**
     * {@code rdma_get_request}: waits for a connect request on a listening endpoint and returns its
     * new endpoint, with its QP created from the listener's QP attributes (if it was given some) and
     * not yet accepted: post receives, then {@link #accept()} or {@link #reject}.
     *
     * @return the request's endpoint
     * @throws ConnectionTimeoutException no request came within {@link #timeout()}
     */
    RdmaEndpoint getRequest();

    /** {@code rdma_connect} with the defaults of {@link ConnParam}. */
    void connect();

    /**
     * {@code rdma_connect}: sends the REQ and waits for ESTABLISHED (the QP is then in RTS).
     *
     * @param param what the REQ carries
     * @throws ConnectionRejectedException the peer sent a REJ (reason 8: nobody listens on the port)
     * @throws ConnectionTimeoutException  the REQ went unanswered through its retries, or no outcome within {@link #timeout()}
     * @throws RdmaCmException             CONNECT_ERROR: this side's QP could not take the peer's values
     */
    void connect(ConnParam param);

    /** {@code rdma_accept} with the defaults of {@link ConnParam}. */
    void accept();

    /**
     * {@code rdma_accept}: moves the QP to RTR and RTS, sends the REP and waits for the RTU
     * (ESTABLISHED).
     *
     * @param param what the REP carries
     * @throws ConnectionRejectedException the peer answered the REP with a REJ
     * @throws ConnectionTimeoutException  the REP went unanswered, or no RTU within {@link #timeout()}
     */
    void accept(ConnParam param);

    /**
     * {@code rdma_reject}: answers the connect request with REJ reason 28.
     *
     * @param privateData what the REJ carries, empty for nothing
     */
    void reject(byte[] privateData);

    /**
     * {@code rdma_disconnect}: moves the QP to ERR and sends a DREQ, waiting for the DREP (or the
     * peer's own DREQ); when the peer disconnected first, sends the DREP and returns at once. As with
     * the kernel's CM, the peer's DREP comes when its application calls {@code rdma_disconnect}: a
     * peer that waits for a completion meanwhile learns of the DREQ there (see {@link #getRecvComp}).
     */
    void disconnect();

    /**
     * {@code rdma_create_qp} on an endpoint made without QP attributes (or one of such a listener's
     * requests): an RC QP in INIT on {@link #pd()}, with a CQ per queue the attributes do not name.
     *
     * @param attributes the QP's CQs and sizes
     * @return the QP, also {@link #qp()}
     * @throws io.jroce.verbs.InvalidStateException the endpoint has a QP already, or is a listener
     */
    QueuePair createQp(QpInitAttributes attributes);

    /**
     * {@code rdma_reg_msgs}: registers a direct buffer (position to limit) for SENDs and receives (local write).
     *
     * @param buffer a direct buffer
     * @return the region, the caller's to close
     */
    MemoryRegion regMsgs(ByteBuffer buffer);

    /**
     * {@code rdma_reg_read}: registers a direct buffer the peer may RDMA READ (local write, remote read).
     *
     * @param buffer a direct buffer
     * @return the region, the caller's to close
     */
    MemoryRegion regRead(ByteBuffer buffer);

    /**
     * {@code rdma_reg_write}: registers a direct buffer the peer may RDMA WRITE (local write, remote write).
     *
     * @param buffer a direct buffer
     * @return the region, the caller's to close
     */
    MemoryRegion regWrite(ByteBuffer buffer);

    /**
     * {@code rdma_post_recv}: a receive of up to {@code length} bytes into {@code mr} at {@code offset}.
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     */
    void postRecv(long wrId, MemoryRegion mr, long offset, int length);

    /**
     * {@code rdma_post_send}: a SEND of {@code length} bytes of {@code mr} at {@code offset}.
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     * @param flags   {@link io.jroce.verbs.SendFlags}, e.g. SIGNALED
     */
    void postSend(long wrId, MemoryRegion mr, long offset, int length, int flags);

    /**
     * A SEND with immediate data (IBV_WR_SEND_WITH_IMM; rdma_verbs.h has no helper for it).
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     * @param flags   {@link io.jroce.verbs.SendFlags}, e.g. SIGNALED
     * @param imm     the immediate data
     */
    void postSendImm(long wrId, MemoryRegion mr, long offset, int length, int flags, int imm);

    /**
     * {@code rdma_post_write}: an RDMA WRITE of {@code length} bytes of {@code mr} at {@code offset} to the peer's {@code remoteAddress}.
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     * @param flags   {@link io.jroce.verbs.SendFlags}, e.g. SIGNALED
     * @param remoteAddress the peer's virtual address
     * @param rkey    the peer's rkey of that memory
     */
    void postWrite(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress, int rkey);

    /**
     * An RDMA WRITE with immediate data (IBV_WR_RDMA_WRITE_WITH_IMM), which consumes a receive at the peer.
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     * @param flags   {@link io.jroce.verbs.SendFlags}, e.g. SIGNALED
     * @param remoteAddress the peer's virtual address
     * @param rkey    the peer's rkey of that memory
     * @param imm     the immediate data
     */
    void postWriteImm(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress, int rkey,
                      int imm);

    /**
     * {@code rdma_post_read}: an RDMA READ of {@code length} bytes at the peer's {@code remoteAddress} into {@code mr} at {@code offset}.
     *
     * @param wrId    the identifier of the request's completion
     * @param mr      the local region
     * @param offset  the offset of the first byte in {@code mr}
     * @param length  the byte count
     * @param flags   {@link io.jroce.verbs.SendFlags}, e.g. SIGNALED
     * @param remoteAddress the peer's virtual address
     * @param rkey    the peer's rkey of that memory
     */
    void postRead(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress, int rkey);

    /**
     * {@code rdma_get_send_comp}: waits for the next completion of the send CQ and fills {@code wc}
     * (returned). As in librdmacm the status is the caller's to check.
     *
     * @param wc the completion to fill
     * @return {@code wc}
     * @throws RdmaCmException            the peer disconnected while nothing completed
     * @throws ConnectionTimeoutException nothing completed within {@link #timeout()}
     */
    WorkCompletion getSendComp(WorkCompletion wc);

    /**
     * {@code rdma_get_recv_comp}: as {@link #getSendComp}, on the receive CQ.
     *
     * @param wc the completion to fill
     * @return {@code wc}
     * @throws RdmaCmException            the peer disconnected while nothing completed
     * @throws ConnectionTimeoutException nothing completed within {@link #timeout()}
     */
    WorkCompletion getRecvComp(WorkCompletion wc);

    /**
     * The bound of this endpoint's blocking calls.
     *
     * @return the bound
     */
    Duration timeout();

    /**
     * Sets the bound of this endpoint's blocking calls (endpoints made by {@link #getRequest()} inherit it).
     *
     * @param timeout the bound
     * @return this endpoint
     */
    RdmaEndpoint timeout(Duration timeout);

    /**
     * The endpoint's QP.
     *
     * @return the QP, or null when it was made without QP attributes (a listener's is always null)
     */
    QueuePair qp();

    /**
     * The protection domain its QP and registrations use: the one given to createEp, else the device's;
     * null for a listener on the wildcard without one given (its requests' endpoints have their device's).
     *
     * @return the protection domain, or null
     */
    ProtectionDomain pd();

    /**
     * The CQ of its send queue.
     *
     * @return the CQ, or null without a QP
     */
    CompletionQueue sendCq();

    /**
     * The CQ of its receive queue.
     *
     * @return the CQ, or null without a QP
     */
    CompletionQueue recvCq();

    /**
     * The endpoint's device.
     *
     * @return the device; null for a listener on the wildcard address
     */
    RdmaDevice device();

    /**
     * The endpoint's local address and port.
     *
     * @return the address
     */
    InetSocketAddress localAddress();

    /**
     * The peer's address and port.
     *
     * @return the address, or null on a listener
     */
    InetSocketAddress peerAddress();

    /**
     * {@code rdma_destroy_ep}: destroys the QP and the CQs the endpoint made, then the CM ID
     * (disconnect first to tell the peer). Regions registered through it are the caller's to close first.
     */
    @Override
    void close();
}
