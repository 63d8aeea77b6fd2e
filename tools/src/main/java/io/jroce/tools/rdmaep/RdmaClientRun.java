package io.jroce.tools.rdmaep;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.io.IOException;
import java.io.PrintStream;

/**
 * rdma_client's {@code run}: an active endpoint to -s, its 16-byte receive posted before the
 * connect, 16 bytes sent, the server's message awaited, the disconnect. Returns its status: 0, -1
 * for a failed call (perror's line printed), or getaddrinfo's error.
 */
final class RdmaClientRun {
    private final EpOptions options;
    private final PrintStream out;
    private final PrintStream err;

    RdmaClientRun(EpOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    int run() {
        AddrLookup.Result lookup = AddrLookup.lookup(options.server(), options.port(), false);
        if (lookup.failed()) {
            out.println("rdma_getaddrinfo: " + lookup.errorText());
            return lookup.error();
        }
        CmDevicePlan plan;
        RdmaDevice device;
        try {
            plan = CmDevicePlan.active(lookup.address(), null, options.binds());
            device = plan.device(options.device()).open();
        } catch (IOException | VerbsException e) {
            err.println("rdma_create_ep: Cannot assign requested address"); // rdma_resolve_addr: no device for it
            return -1;
        }
        try (device) {
            RdmaAddrInfo hints = new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_NUMERICHOST)
                .srcAddress(plan.localSocket(0));
            RdmaEndpoint id;
            try {
                id = RdmaCm.createEp(RdmaCm.getAddrInfo(plan.destination().getHostAddress(),
                    Integer.toString(lookup.port()), hints), null, EpMessages.qpInit());
            } catch (VerbsException e) {
                err.println(Strerror.perror("rdma_create_ep", e));
                return -1;
            }
            try {
                return new EpConversation("rdma_client", out, err).hold(id, "rdma_connect",
                    () -> id.connect(connParam(id.device().queryDevice())), true);
            } finally {
                EpConversation.destroy(id);
            }
        }
    }

    /**
     * rdma_connect without parameters: librdmacm offers the device's limits as responder resources
     * and initiator depth, and retry and RNR retry counts 7.
     */
    static ConnParam connParam(DeviceAttributes caps) {
        return new ConnParam().responderResources(caps.maxQpRdAtom()).initiatorDepth(caps.maxQpInitRdAtom())
            .retryCount(7).rnrRetryCount(7);
    }
}
