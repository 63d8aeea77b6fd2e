package io.jroce.tools.rdmaep;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
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
                return connected(id);
            } finally {
                RdmaServerRun.closeQuietly(id);
            }
        }
    }

    /** From the inline check to the disconnect. */
    private int connected(RdmaEndpoint id) {
        int sendFlags = EpMessages.sendFlags(id.device());
        if (sendFlags == 0) {
            out.println("rdma_client: device doesn't support IBV_SEND_INLINE, using sge sends");
        }
        EpMessages msgs;
        try {
            msgs = EpMessages.register(id);
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_reg_msgs for recv_msg", e));
            return -1;
        }
        try (msgs) {
            try {
                id.postRecv(0, msgs.recv, 0, EpMessages.LENGTH);
            } catch (VerbsException e) {
                err.println(Strerror.perror("rdma_post_recv", e));
                return -1;
            }
            try {
                id.connect(connParam(id.device().queryDevice()));
            } catch (VerbsException e) {
                err.println(Strerror.perror("rdma_connect", e));
                return -1;
            }
            int ret = exchange(id, msgs, sendFlags);
            RdmaServerRun.disconnect(id);
            return ret;
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

    /** The message, then the server's; 0 or -1. */
    private int exchange(RdmaEndpoint id, EpMessages msgs, int sendFlags) {
        WorkCompletion wc = new WorkCompletion();
        try {
            id.postSend(0, msgs.send, 0, EpMessages.LENGTH, sendFlags);
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_post_send", e));
            return -1;
        }
        try {
            id.getSendComp(wc);
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_get_send_comp", e));
            return -1;
        }
        try {
            id.getRecvComp(wc);
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_get_recv_comp", e));
            return -1;
        }
        return 0;
    }
}
