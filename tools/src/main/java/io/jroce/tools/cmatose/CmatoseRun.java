package io.jroce.tools.cmatose;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * One run of cmatose's main once its options are read: the event channel and nodes, the server's
 * or the client's side, the teardown, "return status N"; returns the status as the shell sees it.
 * An interrupt (a run stopped from outside, as a signal stops cmatose) still tears everything down,
 * so that the device closes.
 */
final class CmatoseRun {
    private final CmatoseOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private RdmaDevice device;

    CmatoseRun(CmatoseOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    int run() throws InterruptedException {
        if (options.connections() < 0) {
            out.println("cmatose: unable to allocate memory for test nodes"); // malloc of a negative count
            return CmatoseOptions.USAGE_STATUS;
        }
        RdmaEventChannel channel = RdmaCm.createEventChannel();
        CmatoseTest test = new CmatoseTest(options, channel, out, err);
        boolean tornDown = false;
        try {
            if (options.server() != null) {
                for (CmatoseNode node : test.nodes) {
                    test.context(node, channel.createId(options.portSpace()));
                }
            }
            int ret = options.server() != null ? runClient(test) : runServer(test);
            out.println("test complete");
            test.destroyNodes();
            closeChannelAndDevice(channel);
            tornDown = true;
            out.println("return status " + ret);
            return ret & 0xFF;
        } finally {
            if (!tornDown) {
                boolean interrupted = Thread.interrupted();
                test.destroyNodes();
                closeChannelAndDevice(channel);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** run_server. */
    private int runServer(CmatoseTest test) throws InterruptedException {
        out.println("cmatose: starting server");
        RdmaCmId listener = null;
        try {
            AddrLookup.Result lookup = AddrLookup.lookup(options.bind() == null ? "0.0.0.0" : options.bind(),
                options.port(), options.bind() != null && options.numericHost());
            if (lookup.failed()) {
                out.println("cmatose: getrdmaaddr error: " + lookup.errorText());
                return lookup.error();
            }
            // without -b cmatose binds the wildcard its passive getaddrinfo gives (:: or 0.0.0.0, by the
            // host's glibc): one listener for every device; the twin takes ::, which takes both families
            InetAddress local = options.bind() != null ? lookup.address() : AddrLookup.ANY_IPV6;
            CmDevicePlan plan;
            try {
                plan = CmDevicePlan.passive(local, options.binds());
                device = plan.device(options.device()).open();
            } catch (IOException | VerbsException e) {
                err.println("cmatose: bind address failed: Cannot assign requested address"); // no device has it
                return -1;
            }
            listener = test.channel.createId(options.portSpace());
            try {
                listener.bindAddr(plan.localSocket(lookup.port()));
            } catch (VerbsException e) {
                err.println(Strerror.perror("cmatose: bind address failed", e));
                return -1;
            }
            try {
                listener.listen(0);
            } catch (VerbsException e) {
                err.println(Strerror.perror("cmatose: failure trying to listen", e));
                return -1;
            }
            int ret = test.connectEvents();
            if (ret != 0) {
                return ret;
            }
            if (test.count != 0) {
                out.println("initiating data transfers");
                for (CmatoseNode node : test.nodes) {
                    ret = node.postSends(test);
                    if (ret != 0) {
                        return ret;
                    }
                }
                out.println("completing sends");
                test.pollCqs(true);
                out.println("receiving data transfers");
                test.pollCqs(false);
                out.println("data transfers complete");
            }
            out.println("cmatose: disconnecting");
            for (CmatoseNode node : test.nodes) {
                if (node.connected) {
                    node.connected = false;
                    CmatoseTest.disconnect(node.cmId);
                }
            }
            ret = test.disconnectEvents();
            out.println("disconnected");
            return ret;
        } finally {
            if (listener != null) {
                test.destroyId(listener);
            }
        }
    }

    /** run_client. */
    private int runClient(CmatoseTest test) throws InterruptedException {
        out.println("cmatose: starting client");
        InetAddress source = null;
        if (options.bind() != null) {
            AddrLookup.Result src = AddrLookup.lookup(options.bind(), "0", options.numericHost());
            if (src.failed()) {
                out.println("cmatose: getaddrinfo error: " + src.errorText());
                return src.error();
            }
            source = src.address();
        }
        AddrLookup.Result dst = AddrLookup.lookup(options.server(), options.port(), options.numericHost());
        if (dst.failed()) {
            out.println("cmatose: getaddrinfo error: " + dst.errorText());
            return dst.error();
        }
        out.println("cmatose: connecting");
        CmDevicePlan plan;
        try {
            plan = CmDevicePlan.active(dst.address(), source, options.binds());
            device = plan.device(options.device()).open();
        } catch (IOException | VerbsException e) {
            err.println("cmatose: failure getting addr: Cannot assign requested address");
            test.connectsLeft--;
            return -1;
        }
        for (CmatoseNode node : test.nodes) {
            try {
                node.cmId.resolveAddr(plan.localSocket(0),
                    new InetSocketAddress(plan.destination(), dst.port()), CmatoseTest.RESOLVE_TIMEOUT_MS);
            } catch (VerbsException e) {
                err.println(Strerror.perror("cmatose: failure getting addr", e));
                test.connectsLeft--;
                return -1;
            }
        }
        int ret = test.connectEvents();
        if (ret == 0 && test.count != 0) {
            out.println("receiving data transfers");
            test.pollCqs(false);
            out.println("sending replies");
            for (CmatoseNode node : test.nodes) {
                ret = node.postSends(test);
                if (ret != 0) {
                    break;
                }
            }
            if (ret == 0) {
                out.println("data transfers complete");
            }
        }
        int ret2 = test.disconnectEvents();
        return ret2 != 0 ? ret2 : ret;
    }

    /** rdma_destroy_event_channel, then the device (the kernel's outlives cmatose). Each once. */
    private void closeChannelAndDevice(RdmaEventChannel channel) {
        try {
            channel.close();
        } catch (VerbsException e) {
            // an ID still open: cmatose ignores the status likewise
        }
        if (device != null) {
            device.close();
            device = null;
        }
    }
}
