package io.jroce.tools.udaddy;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.tools.cmcommon.UdNode;
import io.jroce.tools.cmcommon.UdTest;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
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

/**
 * One run of udaddy's main once its options are read: the nodes, the event channel, the server or
 * the client, "test complete", the teardown and "return status N"; returns udaddy's exit status (N's
 * low byte). Everything runs on the caller's thread, as udaddy's single thread does: CM events are
 * handled in turn until every connection is resolved (or one fails), then the CQs are polled. An
 * interrupt (a run stopped from outside) still tears everything down, so that the device closes.
 */
final class UdaddyRun {
    /** rdma_resolve_addr's and rdma_resolve_route's timeout in udaddy. */
    private static final int RESOLVE_MS = 2000;
    /** getaddrinfo's EAI_NONAME, which udaddy returns (and exits with) for a name that does not resolve. */
    private static final int EAI_NONAME = -2;
    private static final String NONAME = "Name or service not known";

    private final UdaddyOptions options;
    private final PrintStream out;
    private final PrintStream err;
    /** The nodes, the messages and the connections left. */
    private final UdTest test;
    private int connIndex;
    /** IDs of requests the server refused; udaddy leaves them to the process's end, the twin closes them. */
    private final List<RdmaCmId> refused = new ArrayList<>();
    private RdmaDevice device;

    UdaddyRun(UdaddyOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.test = new UdTest("udaddy", options.connections(), options.size(), options.count(), out, err);
    }

    int run() throws InterruptedException {
        if (options.connections() < 0) {
            out.println("udaddy: unable to allocate memory for test nodes"); // malloc of a negative size
            return 1;
        }
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            if (!options.isServer()) {
                for (UdNode node : test.nodes()) {
                    node.id = channel.createId(PortSpace.UDP);
                }
            }
            int ret;
            try {
                ret = options.isServer() ? runServer(channel) : runClient(channel);
                out.println("test complete");
            } finally {
                destroyNodes();
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
            test.connectEvents(channel, this::handle); // its status is not udaddy's server's concern

            if (test.count() != 0) {
                out.println("receiving data transfers");
                int ret = test.pollCqs(this::replyAh);
                if (ret != 0) {
                    return ret;
                }
                out.println("sending replies");
                for (UdNode node : test.nodes()) {
                    ret = test.postSends(node, SendFlags.SIGNALED, SendFlags.SIGNALED);
                    if (ret != 0) {
                        return ret;
                    }
                }
                ret = test.pollCqs(this::replyAh);
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
            test.connectError();
            return -1;
        }
        InetSocketAddress remote = new InetSocketAddress(destination, UdaddyOptions.PORT);
        for (UdNode node : test.nodes()) {
            try {
                node.id.resolveAddr(local, remote, RESOLVE_MS);
            } catch (VerbsException e) {
                err.println("udaddy: failure getting addr: " + e.getMessage());
                test.connectError();
                return -1;
            }
        }
        int ret = test.connectEvents(channel, this::handle);
        if (ret != 0) {
            return ret;
        }
        if (test.count() != 0) {
            out.println("initiating data transfers");
            for (UdNode node : test.nodes()) {
                ret = test.postSends(node, 0, 0);
                if (ret != 0) {
                    return ret;
                }
            }
            out.println("receiving data transfers");
            ret = test.pollCqs(this::replyAh);
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

    /** cma_handler. */
    private int handle(RdmaCmEvent event) {
        return switch (event.type()) {
            case ADDR_RESOLVED -> addrHandler(test.nodeOf(event.id()));
            case ROUTE_RESOLVED -> routeHandler(test.nodeOf(event.id()));
            case CONNECT_REQUEST -> connectHandler(event.id());
            case ESTABLISHED -> resolvedHandler(test.nodeOf(event.id()), event.udParam());
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> test.eventError(event);
            default -> 0; // DEVICE_REMOVAL: cleanup comes after the test, as in udaddy
        };
    }

    private int addrHandler(UdNode node) {
        if (options.tos() != null) {
            try {
                node.id.setOption(RdmaCmOption.TOS, options.tos());
            } catch (VerbsException e) {
                err.println(Strerror.perror("udaddy: set TOS option failed", e));
            }
        }
        try {
            node.id.resolveRoute(RESOLVE_MS);
            return 0;
        } catch (VerbsException e) {
            err.println("udaddy: resolve route failed: " + e.getMessage());
            test.connectError();
            return -1;
        }
    }

    private int routeHandler(UdNode node) {
        int ret = test.setUp(node, true);
        if (ret == 0) {
            try {
                node.id.connect(new ConnParam()); // udaddy's rai->ai_connect: none for an IP address
            } catch (VerbsException e) {
                err.println("udaddy: failure connecting: " + e.getMessage());
                ret = -1;
            }
        }
        if (ret != 0) {
            test.connectError();
        }
        return ret;
    }

    private int connectHandler(RdmaCmId id) {
        int ret;
        if (connIndex == test.nodes().length) {
            ret = -UdTest.ENOMEM;
        } else {
            UdNode node = test.nodes()[connIndex++];
            node.id = id;
            ret = test.setUp(node, true);
            if (ret == 0) {
                try {
                    id.accept(new ConnParam()); // the SIDR_REP names the ID's QP, udaddy's conn_param.qp_num
                    test.accepted(node);
                    return 0;
                } catch (VerbsException e) {
                    err.println("udaddy: failure accepting: " + e.getMessage());
                    ret = -1;
                }
            }
            node.destroy();
            node.id = null;
            test.connectError();
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

    private int resolvedHandler(UdNode node, RdmaUdParam ud) {
        return test.connected(node, ud.qpNum(), ud.qkey(), ud.ahAttr());
    }

    /** poll_cqs' completions: the server's first makes the reply's address handle. */
    private boolean replyAh(UdNode node, WorkCompletion wc) {
        if (node.ah == null && !createReplyAh(node, wc)) {
            out.println("udaddy: failed to create reply AH");
            return false;
        }
        return true;
    }

    /**
     * create_reply_ah, as ibv_create_ah_from_wc reads a RoCEv2 receive: the destination is the GRH
     * area's source address (an IPv6 header, or an IPv4 header in its last 20 bytes), the source GID
     * the one the message came to; the QPN from the immediate data, the Q_Key this QP's.
     *
     * @return false when the address handle could not be made
     */
    private boolean createReplyAh(UdNode node, WorkCompletion wc) {
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

    /** destroy_nodes: each node's resources, then its ID; the refused requests' IDs too. */
    private void destroyNodes() {
        test.destroy();
        for (RdmaCmId id : refused) {
            id.close();
        }
    }
}
