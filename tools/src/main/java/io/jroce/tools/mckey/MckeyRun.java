package io.jroce.tools.mckey;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.tools.pingpong.GidText;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpInitAttributes;
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
import io.jroce.verbs.cm.McJoinFlag;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * One run of mckey's main once its options are read: the nodes, the event channel, the joins, the
 * datagrams, the leaves, "test complete", the teardown and "return status N"; returns mckey's exit
 * status (N's low byte). CM events are handled on the caller's thread until every ID has joined (or
 * one fails), then the CQs are polled. An interrupt (a run stopped from outside) still tears
 * everything down, so that the device closes.
 */
final class MckeyRun {
    /** The 40 bytes before a UD message in a receive buffer, where the network header lands. */
    static final int GRH = 40;
    /** rdma_resolve_addr's timeout in mckey. */
    private static final int RESOLVE_MS = 2000;
    /** mckey's pause after the joins, "to give SM chance to configure switches". */
    private static final long SETTLE_MS = 3000;
    private static final int ENOMEM = 12;
    private static final int EINVAL = 22;

    private final MckeyOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final int size;
    /** message_count: mckey's create_message sets it to 0 for a zero message size. */
    private int count;
    private final MckeyNode[] nodes;
    private int connectsLeft;
    private RdmaDevice device;
    private InetSocketAddress group;

    MckeyRun(MckeyOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.size = options.size();
        this.count = options.count();
        this.nodes = new MckeyNode[Math.max(0, options.connections())];
    }

    int run() throws InterruptedException {
        if (options.connections() < 0) {
            out.println("mckey: unable to allocate memory for test nodes"); // malloc of a negative size
            return 1;
        }
        connectsLeft = options.connections();
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = new MckeyNode(i, channel.createId(PortSpace.UDP));
            }
            int ret;
            try {
                ret = test(channel);
                out.println("test complete");
            } finally {
                for (MckeyNode node : nodes) {
                    node.destroy();
                }
            }
            out.println("return status " + ret);
            return ret & 0xFF;
        } finally {
            if (device != null) {
                device.close();
            }
        }
    }

    /** mckey's run(). */
    private int test(RdmaEventChannel channel) throws InterruptedException {
        out.println("mckey: starting " + (options.sender() ? "client" : "server"));
        InetAddress source = null;
        if (options.bind() != null) {
            AddrLookup.Result r = AddrLookup.lookup(options.bind(), "0", false);
            if (r.failed()) {
                return getaddrinfoFailed(r);
            }
            source = r.address();
        }
        // getaddrinfo(NULL, NULL) without -m: EAI_NONAME, as mckey gets it.
        AddrLookup.Result g = AddrLookup.lookup(options.group() == null ? "" : options.group(), "0", false);
        if (g.failed()) {
            return getaddrinfoFailed(g);
        }
        group = new InetSocketAddress(g.address(), 0);

        out.println("mckey: joining");
        InetSocketAddress local = source == null ? null : new InetSocketAddress(source, 0);
        try {
            CmDevicePlan plan = CmDevicePlan.active(g.address(), source,
                options.bindGiven() ? options.device().binds() : null);
            device = plan.device(options.device()).open();
        } catch (IOException | VerbsException e) {
            err.println("mckey: resolve addr failure: " + e.getMessage());
            connectError();
            return -1;
        }
        for (MckeyNode node : nodes) {
            if (local != null) {
                try {
                    node.id.bindAddr(local);
                } catch (VerbsException e) {
                    err.println(Strerror.perror("mckey: addr bind failure", e));
                    connectError();
                    return -1;
                }
            }
            try {
                node.id.resolveAddr(local, group, RESOLVE_MS);
            } catch (VerbsException e) {
                err.println(Strerror.perror("mckey: resolve addr failure", e));
                connectError();
                return -1;
            }
        }

        int ret = connectEvents(channel);
        if (ret == 0) {
            Thread.sleep(SETTLE_MS);
            ret = transfer();
        }
        for (MckeyNode node : nodes) {
            try {
                node.id.leaveMulticast(group);
                ret = 0;
            } catch (VerbsException e) {
                err.println(Strerror.perror("mckey: failure leaving", e));
                ret = -1;
            }
        }
        return ret;
    }

    private int getaddrinfoFailed(AddrLookup.Result r) {
        out.println("getaddrinfo failed (" + r.errorText() + ") - invalid hostname or IP address");
        return r.error();
    }

    /** The data transfers of mckey's run(): the sender's SENDs, or the receivers' completions. */
    private int transfer() throws InterruptedException {
        if (count == 0) {
            return 0;
        }
        if (options.sender()) {
            out.println("initiating data transfers");
            for (MckeyNode node : nodes) {
                int ret = postSends(node);
                if (ret != 0) {
                    return ret;
                }
            }
        } else {
            out.println("receiving data transfers");
            int ret = pollCqs();
            if (ret != 0) {
                return ret;
            }
        }
        out.println("data transfers complete");
        return 0;
    }

    /** connect_events: handles CM events until every ID has joined or a handler fails. */
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
            case MULTICAST_JOIN -> joinHandler(nodeOf(event.id()), event.udParam());
            case ADDR_ERROR, ROUTE_ERROR, MULTICAST_ERROR -> {
                out.println("mckey: event: RDMA_CM_EVENT_" + event.type().name() + ", error: " + event.status());
                connectError();
                yield event.status();
            }
            default -> 0; // DEVICE_REMOVAL: cleanup comes after the test, as in mckey
        };
    }

    private MckeyNode nodeOf(RdmaCmId id) {
        for (MckeyNode node : nodes) {
            if (node.id == id) {
                return node;
            }
        }
        throw new IllegalStateException("an event for an ID of no node: " + id);
    }

    private void connectError() {
        connectsLeft--;
    }

    /** addr_handler: the node's resources, its receives (a receiver's), then the join. */
    private int addrHandler(MckeyNode node) {
        int ret = verifyTestParams(node);
        if (ret == 0) {
            ret = initNode(node);
        }
        if (ret == 0 && !options.sender()) {
            ret = postRecvs(node);
        }
        if (ret == 0) {
            try {
                // rdma_join_multicast_ex: -o joins as a send-only full member
                node.id.joinMulticast(group, options.sendOnly() ? McJoinFlag.SENDONLY_FULLMEMBER
                    : McJoinFlag.FULLMEMBER);
            } catch (VerbsException e) {
                err.println(Strerror.perror("mckey: failure joining", e));
                ret = -1;
            }
        }
        if (ret != 0) {
            connectError();
        }
        return ret;
    }

    /** join_handler: the group's address handle, QPN and Q_Key. RoCE has no LIDs: the MLID is 0. */
    private int joinHandler(MckeyNode node, RdmaUdParam ud) {
        out.println("mckey: joined dgid: " + GidText.format(ud.ahAttr().destGid()) + " mlid 0x0 sl "
            + ud.ahAttr().serviceLevel());
        node.remoteQpn = ud.qpNum();
        node.remoteQkey = ud.qkey();
        try {
            // The group's port is the peers' (--peer-udp-port); the CM's address vector names the device's own.
            node.ah = node.pd.createAddressHandle(ud.ahAttr().copy().udpPort(options.device().peerUdpPort()));
        } catch (VerbsException e) {
            out.println("mckey: failure creating address handle");
            connectError();
            return -1;
        }
        node.connected = true;
        connectsLeft--;
        return 0;
    }

    /** verify_test_params: a message must fit the port's active MTU (UD has no segmentation). */
    private int verifyTestParams(MckeyNode node) {
        int mtu = node.id.device().queryPort().activeMtu().bytes();
        if (count != 0 && size > mtu) {
            out.println("mckey: message_size " + size + " is larger than active mtu " + mtu);
            return -EINVAL;
        }
        return 0;
    }

    /** init_node and create_message. */
    private int initNode(MckeyNode node) {
        RdmaDevice dev = node.id.device();
        try {
            node.pd = dev.allocPd();
        } catch (VerbsException e) {
            out.println("mckey: unable to allocate PD");
            return -ENOMEM;
        }
        try {
            node.cq = dev.createCq(count != 0 ? count * 2 : 2);
        } catch (VerbsException e) {
            out.println("mckey: unable to create CQ");
            return -ENOMEM;
        }
        int wrs = count != 0 ? count : 1;
        try {
            node.id.createQp(node.pd, new QpInitAttributes().type(QpType.UD).cq(node.cq).maxSendWr(wrs)
                .maxRecvWr(wrs).maxSendSge(1).maxRecvSge(1));
        } catch (VerbsException e) {
            err.println(Strerror.perror("mckey: unable to create QP", e));
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
            out.println("mckey: failed to create messages: -1");
            return -1;
        }
        return 0;
    }

    /** post_recvs: every receive into the node's one buffer, the GRH area first. */
    private int postRecvs(MckeyNode node) {
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

    /**
     * post_sends: {@code count} SENDs to the group with the immediate data this QP's number, from the
     * buffer's start. mckey posts them all unsignaled and leaves at once; the twin signals the last
     * and waits for its completion, since jroce discards what is still queued when the QP is destroyed.
     */
    private int postSends(MckeyNode node) throws InterruptedException {
        if (!node.connected || count == 0) {
            return 0;
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(node.index).opcode(WrOpcode.SEND_WITH_IMM)
            .immData(node.id.qp().qpNum()).ud(node.ah, node.remoteQpn, node.remoteQkey)
            .sgList(ScatterGatherEntry.of(node.mr, 0, size));
        for (int i = 0; i < count; i++) {
            wr.sendFlags(i == count - 1 ? SendFlags.SIGNALED : 0);
            try {
                node.id.qp().postSend(wr);
            } catch (VerbsException e) {
                out.println("failed to post sends: " + errno(e));
                return errno(e);
            }
        }
        WorkCompletion wc = new WorkCompletion();
        while (!node.cq.pollBlocking(wc, 1, TimeUnit.SECONDS)) {
            // the last SEND's completion: every datagram of the node has left the device
        }
        return 0;
    }

    /**
     * poll_cqs: {@code count} completions of each joined node, of whatever status (mckey reads none),
     * waiting without end as mckey's busy poll does.
     */
    private int pollCqs() throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        for (MckeyNode node : nodes) {
            if (!node.connected) {
                continue;
            }
            int done = 0;
            while (done < count) {
                if (node.cq.pollBlocking(wc, 1, TimeUnit.SECONDS)) {
                    done++;
                }
            }
        }
        return 0;
    }

    /** The errno ibv_post_send or ibv_post_recv returns where jroce throws. */
    private static int errno(VerbsException e) {
        return e instanceof QueueFullException || e instanceof ResourceLimitException ? ENOMEM : EINVAL;
    }
}
