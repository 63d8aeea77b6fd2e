package io.jroce.rnic.cm.api;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaEndpoint;

/**
 * A synchronous endpoint: an {@link SoftCmId} on an event channel of its own, which the endpoint's
 * calls read themselves (librdmacm's {@code id_priv->sync}, {@code ucma_complete}); the connect
 * requests a listener takes move to channels of their own ({@code rdma_migrate_id}). Its data
 * helpers reuse one work request per queue.
 */
final class SoftEndpoint implements RdmaEndpoint {

    private final SoftEventChannel channel;
    private final SoftCmId id;
    private final boolean passive;
    private final ProtectionDomain pd;
    /** Non-null when {@link #pd} is the device's default PD, which this endpoint holds a reference of. */
    private final CmDevice defaultPdOwner;
    /** A listener's QP attributes for the endpoints of its requests (rdma_get_request), or null. */
    private final QpInitAttributes qpTemplate;
    /** The reader of the endpoint's channel, and owner of its timeout. */
    final EndpointEvents events;
    private final EndpointCompletions completions;
    private final EndpointWorkRequests workRequests = new EndpointWorkRequests();
    private final EndpointQueues queues = new EndpointQueues();
    private boolean listening;
    private boolean closed;

    SoftEndpoint(SoftEventChannel channel, SoftCmId id, boolean passive, ProtectionDomain pd,
                         CmDevice defaultPdOwner, QpInitAttributes qpTemplate, Duration timeout) {
        this.channel = channel;
        this.id = id;
        this.passive = passive;
        this.pd = pd;
        this.defaultPdOwner = defaultPdOwner;
        this.qpTemplate = qpTemplate;
        this.events = new EndpointEvents(channel, id, timeout);
        this.completions = new EndpointCompletions(events);
    }

    // Connection management.

    @Override
    public synchronized void listen(int backlog) {
        ensureOpen();
        if (!passive) {
            throw new InvalidStateException("rdma_listen needs a passive endpoint (rdma_getaddrinfo with RAI_PASSIVE)");
        }
        id.listen(backlog);
        listening = true;
    }

    @Override
    public RdmaEndpoint getRequest() {
        synchronized (this) {
            ensureOpen();
            if (!listening) {
                throw new InvalidStateException("rdma_get_request needs a listening endpoint: call listen first");
            }
        }
        long deadline = events.deadline();
        while (true) {
            RdmaCmEvent e = events.take(deadline, "rdma_get_request", RdmaCmEventType.CONNECT_REQUEST);
            if (e.type() != RdmaCmEventType.CONNECT_REQUEST || e.listenId() != id) {
                continue; // a late event of a request's ID taken before it moved to its own channel
            }
            return requestEndpoint((SoftCmId) e.id());
        }
    }

    private RdmaEndpoint requestEndpoint(SoftCmId child) {
        SoftEventChannel own = new SoftEventChannel();
        child.migrate(own);
        // A wildcard listener without a PD: the request's endpoint uses the PD of the device it came on.
        CmDevice pdOwner = pd == null ? child.cmDevice() : defaultPdOwner;
        ProtectionDomain requestPd = pd;
        if (pdOwner != null) {
            requestPd = pdOwner.acquireDefaultPd(); // the request's endpoint holds the device's PD as well
        }
        SoftEndpoint ep = new SoftEndpoint(own, child, false, requestPd, pdOwner, null, events.timeout());
        if (qpTemplate != null) {
            try {
                ep.create(qpTemplate);
            } catch (RuntimeException e) {
                child.reject(new byte[0]); // rdma_get_request fails; the peer hears REJ 28
                ep.closeQuietly(e);
                throw e;
            }
        }
        return ep;
    }

    @Override
    public void connect() {
        connect(new ConnParam());
    }

    @Override
    public void connect(ConnParam param) {
        Arguments.notNull(param, "connection parameters");
        requireQp("rdma_connect");
        id.connect(param);
        events.await(RdmaCmEventType.ESTABLISHED, "rdma_connect");
    }

    @Override
    public void accept() {
        accept(new ConnParam());
    }

    @Override
    public void accept(ConnParam param) {
        Arguments.notNull(param, "connection parameters");
        requireQp("rdma_accept");
        id.accept(param);
        events.await(RdmaCmEventType.ESTABLISHED, "rdma_accept");
    }

    @Override
    public void reject(byte[] privateData) {
        ensureOpen();
        id.reject(privateData);
    }

    @Override
    public void disconnect() {
        ensureOpen();
        events.takePending();
        boolean peerFirst = events.disconnected();
        id.disconnect();
        if (!peerFirst) {
            events.await(RdmaCmEventType.DISCONNECTED, "rdma_disconnect");
        }
    }

    // Memory and data helpers (rdma_verbs.h).

    @Override
    public MemoryRegion regMsgs(ByteBuffer buffer) {
        return register(buffer, AccessFlags.LOCAL_WRITE);
    }

    @Override
    public MemoryRegion regRead(ByteBuffer buffer) {
        return register(buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
    }

    @Override
    public MemoryRegion regWrite(ByteBuffer buffer) {
        return register(buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
    }

    private MemoryRegion register(ByteBuffer buffer, int access) {
        ensureOpen();
        if (pd == null) {
            throw new InvalidStateException("a listener on the wildcard address has no device to register memory on;"
                + " its requests' endpoints do");
        }
        return pd.registerMemory(Arguments.notNull(buffer, "buffer"), access);
    }

    @Override
    public void postRecv(long wrId, MemoryRegion mr, long offset, int length) {
        workRequests.postRecv(requireQp("rdma_post_recv"), wrId, mr, offset, length);
    }

    @Override
    public void postSend(long wrId, MemoryRegion mr, long offset, int length, int flags) {
        post("rdma_post_send", WrOpcode.SEND, wrId, mr, offset, length, flags, 0, 0, 0);
    }

    @Override
    public void postSendImm(long wrId, MemoryRegion mr, long offset, int length, int flags, int imm) {
        post("rdma_post_send", WrOpcode.SEND_WITH_IMM, wrId, mr, offset, length, flags, 0, 0, imm);
    }

    @Override
    public void postWrite(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress,
                          int rkey) {
        post("rdma_post_write", WrOpcode.RDMA_WRITE, wrId, mr, offset, length, flags, remoteAddress, rkey, 0);
    }

    @Override
    public void postWriteImm(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress,
                             int rkey, int imm) {
        post("rdma_post_write", WrOpcode.RDMA_WRITE_WITH_IMM, wrId, mr, offset, length, flags, remoteAddress, rkey,
            imm);
    }

    @Override
    public void postRead(long wrId, MemoryRegion mr, long offset, int length, int flags, long remoteAddress,
                         int rkey) {
        post("rdma_post_read", WrOpcode.RDMA_READ, wrId, mr, offset, length, flags, remoteAddress, rkey, 0);
    }

    private void post(String call, WrOpcode op, long wrId, MemoryRegion mr, long offset, int length, int flags,
                      long remoteAddress, int rkey, int imm) {
        workRequests.postSend(requireQp(call), op, wrId, mr, offset, length, flags, remoteAddress, rkey, imm);
    }

    @Override
    public WorkCompletion getSendComp(WorkCompletion wc) {
        requireQp("rdma_get_send_comp");
        return completions.next(queues.sendCq(), Arguments.notNull(wc, "work completion"), "rdma_get_send_comp");
    }

    @Override
    public WorkCompletion getRecvComp(WorkCompletion wc) {
        requireQp("rdma_get_recv_comp");
        return completions.next(queues.recvCq(), Arguments.notNull(wc, "work completion"), "rdma_get_recv_comp");
    }

    // Resources.

    @Override
    public synchronized QueuePair createQp(QpInitAttributes attributes) {
        Arguments.notNull(attributes, "QP init attributes");
        ensureOpen();
        if (passive) {
            throw new InvalidStateException("rdma_create_qp: a listener has no QP; its requests' endpoints do");
        }
        if (id.qp() != null) {
            throw new InvalidStateException("rdma_create_qp: the endpoint has QP " + id.qp().qpNum() + " already");
        }
        create(attributes);
        return id.qp();
    }

    void create(QpInitAttributes template) {
        queues.create(id, pd, template);
    }

    @Override
    public Duration timeout() {
        return events.timeout();
    }

    @Override
    public RdmaEndpoint timeout(Duration t) {
        Arguments.notNull(t, "timeout");
        if (t.isNegative() || t.isZero()) {
            throw new InvalidAttributeException("the timeout must be positive, not " + t);
        }
        events.timeout(t);
        return this;
    }

    @Override
    public QueuePair qp() {
        return id.qp();
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public CompletionQueue sendCq() {
        return queues.sendCq();
    }

    @Override
    public CompletionQueue recvCq() {
        return queues.recvCq();
    }

    @Override
    public RdmaDevice device() {
        return id.device();
    }

    @Override
    public InetSocketAddress localAddress() {
        return id.localAddress();
    }

    @Override
    public InetSocketAddress peerAddress() {
        return id.peerAddress();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        QueuePair q = id.qp();
        if (q != null) {
            failure = attempt(q::close, failure);
        }
        failure = attempt(queues::closeOwnCqs, failure);
        failure = attempt(() -> closeId(channel, id), failure);
        if (defaultPdOwner != null) {
            failure = attempt(defaultPdOwner::releaseDefaultPd, failure);
        }
        if (failure != null) {
            throw failure;
        }
    }

    void closeQuietly(RuntimeException cause) {
        try {
            close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private static RuntimeException attempt(Runnable step, RuntimeException earlier) {
        try {
            step.run();
            return earlier;
        } catch (RuntimeException e) {
            if (earlier != null) {
                earlier.addSuppressed(e);
                return earlier;
            }
            return e;
        }
    }

    /**
     * rdma_destroy_id, then the channel. The endpoint acknowledges every event it takes, so none holds
     * the ID back; the events still queued are discarded with it.
     */
    static void closeId(SoftEventChannel channel, SoftCmId id) {
        id.close();
        channel.close();
    }

    private QueuePair requireQp(String call) {
        ensureOpen();
        QueuePair q = id.qp();
        if (q == null) {
            throw new InvalidStateException(call + ": the endpoint has no QP (give rdma_create_ep QP attributes)");
        }
        return q;
    }

    private void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("the endpoint is closed (rdma_destroy_ep)");
        }
    }
}
