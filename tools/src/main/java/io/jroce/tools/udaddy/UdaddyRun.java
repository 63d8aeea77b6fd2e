package io.jroce.tools.udaddy;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of udaddy's main once its options are read: the nodes, the event channel, the server or
 * the client, "test complete", the teardown and "return status N"; returns udaddy's exit status (N's
 * low byte). Everything runs on the caller's thread, as udaddy's single thread does: CM events are
 * handled in turn until every connection is resolved (or one fails), then the CQs are polled. An
 * interrupt (a run stopped from outside) still tears everything down, so that the device closes.
 */
final class UdaddyRun {
    /** The 40 bytes before a UD message in a receive buffer, where the network header lands. */
    static final int GRH = 40;
    /** rdma_resolve_addr's and rdma_resolve_route's timeout in udaddy. */
    private static final int RESOLVE_MS = 2000;
    private static final int ENOMEM = 12;
    private static final int EINVAL = 22;
    /** getaddrinfo's EAI_NONAME, which udaddy returns (and exits with) for a name that does not resolve. */
    private static final int EAI_NONAME = -2;
    private static final String NONAME = "Name or service not known";

    private final UdaddyOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final int size;
    /** message_count: udaddy's create_message sets it to 0 for a zero message size. */
    private int count;
    private final UdaddyNode[] nodes;
    private int connIndex;
    private int connectsLeft;
    /** IDs of requests the server refused; udaddy leaves them to the process's end, the twin closes them. */
    private final List<RdmaCmId> refused = new ArrayList<>();
    private RdmaDevice device;

    UdaddyRun(UdaddyOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.size = options.size();
        this.count = options.count();
        this.nodes = new UdaddyNode[Math.max(0, options.connections())];
    }

    int run() throws InterruptedException {
        if (options.connections() < 0) {
            out.println("udaddy: unable to allocate memory for test nodes"); // malloc of a negative size
            return 1;
        }
        connectsLeft = options.connections();
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = new UdaddyNode(i);
                if (!options.isServer()) {
                    nodes[i].id = channel.createId(PortSpace.UDP);
                }
            }
            int ret;
            try {
                ret = options.isServer() ? runServer(channel) : runClient(channel);
                out.println("test complete");
            } finally {
                destroyNodes(channel);
            }
            out.println("return status " + ret);
            return ret & 0xFF;
        } finally {
            if (device != null) {
                device.close();
            }
        }
    }

    private int runServer(RdmaEventChannel channel) throws InterruptedException {
        out.println("udaddy: starting server");
        RdmaCmId listenId = channel.createId(PortSpace.UDP);
        try {
            InetAddress bind = null;
            if (options.bind() != null) {
                bind = resolve(options.bind());
                if (bind == null) {
                    out.println("udaddy: getrdmaaddr error: " + NONAME);
                    return EAI_NONAME;
                }
            }
            try {
                CmDevicePlan plan = CmDevicePlan.passive(bind != null ? bind : AddrLookup.ANY_IPV4,
                    options.bindGiven() ? options.device().binds() : null);
                device = plan.device(options.device()).open();
                listenId.bindAddr(new InetSocketAddress(plan.local(), UdaddyOptions.PORT));
            } catch (IOException | VerbsException e) {
                err.println("udaddy: bind address failed: " + e.getMessage());
                return -1;
            }
            try {
                listenId.listen(0);
            } catch (VerbsException e) {
                err.println("udaddy: failure trying to listen: " + e.getMessage());
                return -1;
            }
            connectEvents(channel); // its status is not udaddy's server's concern

            if (count != 0) {
                out.println("receiving data transfers");
                int ret = pollCqs();
                if (ret != 0) {
                    return ret;
                }
                out.println("sending replies");
                for (UdaddyNode node : nodes) {
                    ret = postSends(node, SendFlags.SIGNALED);
                    if (ret != 0) {
                        return ret;
                    }
                }
                ret = pollCqs();
                if (ret != 0) {
                    return ret;
                }
                out.println("data transfers complete");
            }
            return 0;
        } finally {
            listenId.close();
        }
    }

    private int runClient(RdmaEventChannel channel) throws InterruptedException {
        out.println("udaddy: starting client");
        InetAddress source = null;
        if (options.bind() != null) {
            source = resolve(options.bind());
        }
        InetAddress destination = source == null && options.bind() != null ? null : resolve(options.server());
        if (destination == null) {
            out.println("udaddy: getaddrinfo error: " + NONAME);
            return EAI_NONAME;
        }

        out.println("udaddy: connecting");
        InetSocketAddress local;
        try {
            CmDevicePlan plan = CmDevicePlan.active(destination, source,
                options.bindGiven() ? options.device().binds() : null);
            device = plan.device(options.device()).open();
            local = plan.local() == null ? null : new InetSocketAddress(plan.local(), 0);
        } catch (IOException | VerbsException e) {
            err.println("udaddy: failure getting addr: " + e.getMessage());
            connectError();
            return -1;
        }
        InetSocketAddress remote = new InetSocketAddress(destination, UdaddyOptions.PORT);
        for (UdaddyNode node : nodes) {
            try {
                node.id.resolveAddr(local, remote, RESOLVE_MS);
            } catch (VerbsException e) {
                err.println("udaddy: failure getting addr: " + e.getMessage());
                connectError();
                return -1;
            }
        }
        int ret = connectEvents(channel);
        if (ret != 0) {
            return ret;
        }
        if (count != 0) {
            out.println("initiating data transfers");
            for (UdaddyNode node : nodes) {
                ret = postSends(node, 0);
                if (ret != 0) {
                    return ret;
                }
            }
            out.println("receiving data transfers");
            ret = pollCqs();
            if (ret != 0) {
                return ret;
            }
            out.println("data transfers complete");
        }
        return 0;
    }

    /** getaddrinfo's first answer for a name or a literal (a literal only with -f ip), or null. */
    private InetAddress resolve(String host) {
        if (host.isEmpty() || options.numericHost() && !isLiteral(host)) {
            return null;
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isLiteral(String host) {
        try {
            Gid.parse(host);
            return true;
        } catch (VerbsException e) {
            return false;
        }
    }

    /** connect_events: handles CM events until every connection is resolved or a handler fails. */
    private int connectEvents(RdmaEventChannel channel) throws InterruptedException {
        int ret = 0;
        while (connectsLeft > 0 && ret == 0) {
            RdmaCmEvent event = channel.get(1, TimeUnit.SECONDS);
            if (event == null) {
                continue; // rdma_get_cm_event blocks without end
            }
            try {
                ret = handle(event);
            } finally {
                event.ack();
            }
        }
        return ret;
    }

    /** cma_handler. */
    private int handle(RdmaCmEvent event) {
        return switch (event.type()) {
            case ADDR_RESOLVED -> addrHandler(nodeOf(event.id()));
            case ROUTE_RESOLVED -> routeHandler(nodeOf(event.id()));
            case CONNECT_REQUEST -> connectHandler(event.id());
            case ESTABLISHED -> resolvedHandler(nodeOf(event.id()), event.udParam());
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                out.println("udaddy: event: RDMA_CM_EVENT_" + event.type().name() + ", error: " + event.status());
                connectError();
                yield event.status();
            }
            default -> 0; // DEVICE_REMOVAL: cleanup comes after the test, as in udaddy
        };
    }

    private UdaddyNode nodeOf(RdmaCmId id) {
        for (UdaddyNode node : nodes) {
            if (node.id == id) {
                return node;
            }
        }
        throw new IllegalStateException("an event for an ID of no node: " + id);
    }

    private void connectError() {
        connectsLeft--;
    }

    private int addrHandler(UdaddyNode node) {
        if (options.tos() != null) {
            try {
                node.id.setOption(RdmaCmOption.TOS, options.tos());
            } catch (VerbsException e) {
                err.println(io.jroce.tools.cmcommon.Strerror.perror("udaddy: set TOS option failed", e));
            }
        }
        try {
            node.id.resolveRoute(RESOLVE_MS);
            return 0;
        } catch (VerbsException e) {
            err.println("udaddy: resolve route failed: " + e.getMessage());
            connectError();
            return -1;
        }
    }

    private int routeHandler(UdaddyNode node) {
        int ret = verifyTestParams(node);
        if (ret == 0) {
            ret = initNode(node);
        }
        if (ret == 0) {
            ret = postRecvs(node);
        }
        if (ret == 0) {
            try {
                node.id.connect(new ConnParam()); // udaddy's rai->ai_connect: none for an IP address
            } catch (VerbsException e) {
                err.println("udaddy: failure connecting: " + e.getMessage());
                ret = -1;
            }
        }
        if (ret != 0) {
            connectError();
        }
        return ret;
    }

    private int connectHandler(RdmaCmId id) {
        int ret;
        if (connIndex == nodes.length) {
            ret = -ENOMEM;
        } else {
            UdaddyNode node = nodes[connIndex++];
            node.id = id;
            ret = verifyTestParams(node);
            if (ret == 0) {
                ret = initNode(node);
            }
            if (ret == 0) {
                ret = postRecvs(node);
            }
            if (ret == 0) {
                try {
                    id.accept(new ConnParam()); // the SIDR_REP names the ID's QP, udaddy's conn_param.qp_num
                    node.connected = true;
                    connectsLeft--;
                    return 0;
                } catch (VerbsException e) {
                    err.println("udaddy: failure accepting: " + e.getMessage());
                    ret = -1;
                }
            }
            node.destroy();
            node.id = null;
            connectError();
        }
        out.println("udaddy: failing connection request");
        refused.add(id);
        try {
            id.reject(null);
        } catch (VerbsException e) {
            // udaddy ignores rdma_reject's status
        }
        return ret;
    }

    private int resolvedHandler(UdaddyNode node, RdmaUdParam ud) {
        node.remoteQpn = ud.qpNum();
        node.remoteQkey = ud.qkey();
        try {
            node.ah = node.pd.createAddressHandle(ud.ahAttr());
        } catch (VerbsException e) {
            out.println("udaddy: failure creating address handle");
            connectError();
            return -1;
        }
        node.connected = true;
        connectsLeft--;
        return 0;
    }

    /** verify_test_params: a message must fit the port's active MTU (UD has no segmentation). */
    private int verifyTestParams(UdaddyNode node) {
        int mtu = node.id.device().queryPort().activeMtu().bytes();
        if (count != 0 && size > mtu) {
            out.println("udaddy: message_size " + size + " is larger than active mtu " + mtu);
            return -EINVAL;
        }
        return 0;
    }

    /** init_node and create_message. */
    private int initNode(UdaddyNode node) {
        RdmaDevice dev = node.id.device();
        try {
            node.pd = dev.allocPd();
        } catch (VerbsException e) {
            out.println("udaddy: unable to allocate PD");
            return -ENOMEM;
        }
        try {
            node.cq = dev.createCq(count != 0 ? count * 2 : 2);
        } catch (VerbsException e) {
            out.println("udaddy: unable to create CQ");
            return -ENOMEM;
        }
        int wrs = count != 0 ? count : 1;
        try {
            node.id.createQp(node.pd, new QpInitAttributes().type(QpType.UD).cq(node.cq).maxSendWr(wrs)
                .maxRecvWr(wrs).maxSendSge(1).maxRecvSge(1));
        } catch (VerbsException e) {
            err.println("udaddy: unable to create QP: " + e.getMessage());
            return -1;
        }
        if (size == 0) {
            count = 0;
        }
        if (count == 0) {
            return 0;
        }
        try {
            node.mr = node.pd.allocateMemory(size + GRH, AccessFlags.LOCAL_WRITE);
        } catch (VerbsException e) {
            out.println("failed to reg MR");
            out.println("udaddy: failed to create messages: -1");
            return -1;
        }
        return 0;
    }

    /** post_recvs: every receive into the node's one buffer, the GRH area first. */
    private int postRecvs(UdaddyNode node) {
        if (count == 0) {
            return 0;
        }
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(node.index)
            .sgList(ScatterGatherEntry.of(node.mr, 0, size + GRH));
        for (int i = 0; i < count; i++) {
            try {
                node.id.qp().postRecv(wr);
            } catch (VerbsException e) {
                out.println("failed to post receives: " + errno(e));
                return errno(e);
            }
        }
        return 0;
    }

    /** post_sends: {@code count} SENDs with the immediate data this QP's number, from the buffer's start. */
    private int postSends(UdaddyNode node, int sendFlags) {
        if (!node.connected || count == 0) {
            return 0;
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(node.index).opcode(WrOpcode.SEND_WITH_IMM)
            .immData(node.id.qp().qpNum()).sendFlags(sendFlags).ud(node.ah, node.remoteQpn, node.remoteQkey)
            .sgList(ScatterGatherEntry.of(node.mr, 0, size));
        for (int i = 0; i < count; i++) {
            try {
                node.id.qp().postSend(wr);
            } catch (VerbsException e) {
                out.println("failed to post sends: " + errno(e));
                return errno(e);
            }
        }
        return 0;
    }

    /**
     * poll_cqs: {@code count} completions of each connected node, of whatever status (udaddy reads
     * none), waiting without end as udaddy's busy poll does; the server's first makes the reply's
     * address handle.
     */
    private int pollCqs() throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        for (UdaddyNode node : nodes) {
            if (!node.connected) {
                continue;
            }
            int done = 0;
            while (done < count) {
                if (node.cq.pollBlocking(wc, 1, TimeUnit.SECONDS)) {
                    done++;
                    if (node.ah == null && !createReplyAh(node, wc)) {
                        out.println("udaddy: failed to create reply AH");
                        return -1;
                    }
                }
            }
        }
        return 0;
    }

    /**
     * create_reply_ah, as ibv_create_ah_from_wc reads a RoCEv2 receive: the destination is the GRH
     * area's source address (an IPv6 header, or an IPv4 header in its last 20 bytes), the source GID
     * the one the message came to; the QPN from the immediate data, the Q_Key this QP's.
     *
     * @return false when the address handle could not be made
     */
    private boolean createReplyAh(UdaddyNode node, WorkCompletion wc) {
        ByteBuffer b = node.mr.buffer();
        boolean ipv6 = (b.get(0) & 0xF0) == 0x60;
        byte[] src = new byte[ipv6 ? 16 : 4];
        byte[] dst = new byte[src.length];
        b.get(ipv6 ? 8 : 32, src);
        b.get(ipv6 ? 24 : 36, dst);
        try {
            Gid to = Gid.of(InetAddress.getByAddress(src));
            int sgidIndex = node.id.device().gids().indexOf(Gid.of(InetAddress.getByAddress(dst)));
            node.ah = node.pd.createAddressHandle(new AddressVector().destGid(to).sgidIndex(Math.max(0, sgidIndex))
                .hopLimit(0xFF).udpPort(options.device().peerUdpPort()));
            node.remoteQpn = wc.immData();
            node.remoteQkey = node.id.qp().query().qkey();
            return true;
        } catch (UnknownHostException | VerbsException e) {
            return false; // ibv_create_ah_from_wc or ibv_query_qp failed
        }
    }

    /** The errno ibv_post_send or ibv_post_recv returns where jroce throws. */
    private static int errno(VerbsException e) {
        return e instanceof QueueFullException || e instanceof ResourceLimitException ? ENOMEM : EINVAL;
    }

    /** destroy_nodes: each node's resources, then its ID; the refused requests' IDs too. */
    private void destroyNodes(RdmaEventChannel channel) throws InterruptedException {
        for (UdaddyNode node : nodes) {
            if (node == null) {
                continue;
            }
            node.destroy();
            if (node.id != null) {
                destroyId(channel, node.id);
            }
        }
        for (RdmaCmId id : refused) {
            destroyId(channel, id);
        }
    }

    /**
     * rdma_destroy_id, which discards the events the program never read (the kernel frees them). jroce's
     * close() refuses while an ID has events not acknowledged, and after a failed connection another ID's
     * event may still come (its SIDR_REP, or its own failure): read and ack what is there, then close.
     */
    private static void destroyId(RdmaEventChannel channel, RdmaCmId id) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            for (RdmaCmEvent unread; (unread = channel.poll()) != null; ) {
                unread.ack();
            }
            try {
                id.close();
                return;
            } catch (ResourceBusyException lateEvent) {
                if (attempt == 1000) {
                    throw lateEvent;
                }
                Thread.sleep(1);
            }
        }
    }
}
