package io.jroce.tools.rdmaep;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.io.PrintStream;

/**
 * rdma_client's {@code run}: an active endpoint to -s, its 16-byte receive posted before the
 * connect, 16 bytes sent, the server's message awaited, the disconnect. Returns its status: 0, -1
 * for a failed call (perror's line printed), or getaddrinfo's error.
 *
 * @param options its options
 * @param out     its stdout
 * @param err     its stderr (perror's lines)
 */
record RdmaClientRun(EpOptions options, PrintStream out, PrintStream err) {
    int run() throws InterruptedException {
        return EpDevice.run(options, false, out, err, this::connectAndTalk);
    }

    /** rdma_create_ep to -s from the plan's source, then the conversation; the endpoint closed before the device. */
    private int connectAndTalk(CmDevicePlan plan, int port) {
        RdmaAddrInfo hints = new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_NUMERICHOST)
            .srcAddress(plan.localSocket(0));
        RdmaEndpoint id;
        try {
            id = RdmaCm.createEp(RdmaCm.getAddrInfo(plan.destination().getHostAddress(),
                Integer.toString(port), hints), null, EpMessages.qpInit());
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

    /**
     * rdma_connect without parameters: librdmacm offers the device's limits as responder resources
     * and initiator depth, and retry and RNR retry counts 7.
     */
    static ConnParam connParam(DeviceAttributes caps) {
        return new ConnParam().responderResources(caps.maxQpRdAtom()).initiatorDepth(caps.maxQpInitRdAtom())
            .retryCount(7).rnrRetryCount(7);
    }
}
