package io.jroce.tools.mckey;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.tools.cmcommon.UdNode;
import io.jroce.tools.cmcommon.UdTest;
import io.jroce.tools.pingpong.GidText;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.McJoinFlag;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
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
    /** rdma_resolve_addr's timeout in mckey. */
    private static final int RESOLVE_MS = 2000;
    /** mckey's pause after the joins, "to give SM chance to configure switches". */
    private static final long SETTLE_MS = 3000;

    private final MckeyOptions options;
    private final PrintStream out;
    private final PrintStream err;
    /** The nodes, the messages and the connections left. */
    private final UdTest test;
    private RdmaDevice device;
    private InetSocketAddress group;

    MckeyRun(MckeyOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.test = new UdTest("mckey", options.connections(), options.size(), options.count(), out, err);
    }

    int run() throws InterruptedException {
        if (options.connections() < 0) {
            out.println("mckey: unable to allocate memory for test nodes"); // malloc of a negative size
            return 1;
        }
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            for (UdNode node : test.nodes()) {
                node.id = channel.createId(PortSpace.UDP);
            }
            int ret;
            try {
                ret = test(channel);
                out.println("test complete");
            } finally {
                test.destroy();
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
            test.connectError();
            return -1;
        }
        for (UdNode node : test.nodes()) {
            if (local != null) {
                try {
                    node.id.bindAddr(local);
                } catch (VerbsException e) {
                    err.println(Strerror.perror("mckey: addr bind failure", e));
                    test.connectError();
                    return -1;
                }
            }
            try {
                node.id.resolveAddr(local, group, RESOLVE_MS);
            } catch (VerbsException e) {
                err.println(Strerror.perror("mckey: resolve addr failure", e));
                test.connectError();
                return -1;
            }
        }

        int ret = test.connectEvents(channel, this::handle);
        if (ret == 0) {
            Thread.sleep(SETTLE_MS);
            ret = transfer();
        }
        for (UdNode node : test.nodes()) {
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
        if (test.count() == 0) {
            return 0;
        }
        if (options.sender()) {
            out.println("initiating data transfers");
            for (UdNode node : test.nodes()) {
                int ret = postSends(node);
                if (ret != 0) {
                    return ret;
                }
            }
        } else {
            out.println("receiving data transfers");
            int ret = test.pollCqs((node, wc) -> true);
            if (ret != 0) {
                return ret;
            }
        }
        out.println("data transfers complete");
        return 0;
    }

    /** cma_handler. */
    private int handle(RdmaCmEvent event) {
        return switch (event.type()) {
            case ADDR_RESOLVED -> addrHandler(test.nodeOf(event.id()));
            case MULTICAST_JOIN -> joinHandler(test.nodeOf(event.id()), event.udParam());
            case ADDR_ERROR, ROUTE_ERROR, MULTICAST_ERROR -> test.eventError(event);
            default -> 0; // DEVICE_REMOVAL: cleanup comes after the test, as in mckey
        };
    }

    /** addr_handler: the node's resources, its receives (a receiver's), then the join. */
    private int addrHandler(UdNode node) {
        int ret = test.setUp(node, !options.sender());
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
            test.connectError();
        }
        return ret;
    }

    /** join_handler: the group's address handle, QPN and Q_Key. RoCE has no LIDs: the MLID is 0. */
    private int joinHandler(UdNode node, RdmaUdParam ud) {
        out.println("mckey: joined dgid: " + GidText.format(ud.ahAttr().destGid()) + " mlid 0x0 sl "
            + ud.ahAttr().serviceLevel());
        // The group's port is the peers' (--peer-udp-port); the CM's address vector names the device's own.
        return test.connected(node, ud.qpNum(), ud.qkey(), ud.ahAttr().copy().udpPort(options.device().peerUdpPort()));
    }

    /**
     * post_sends to the group. mckey posts them all unsignaled and leaves at once; the twin signals the
     * last and waits for its completion, since jroce discards what is still queued when the QP is destroyed.
     */
    private int postSends(UdNode node) throws InterruptedException {
        int ret = test.postSends(node, 0, SendFlags.SIGNALED);
        if (ret != 0 || !node.connected || test.count() == 0) {
            return ret;
        }
        WorkCompletion wc = new WorkCompletion();
        while (!node.cq.pollBlocking(wc, 1, TimeUnit.SECONDS)) {
            // the last SEND's completion: every datagram of the node has left the device
        }
        return 0;
    }
}
