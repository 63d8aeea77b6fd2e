package io.jroce.tools.rdmaep;

import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.io.PrintStream;

/**
 * What rdma_server and rdma_client do alike on their endpoint, from the inline check to the
 * disconnect: the messages registered, the receive posted, the connection made (rdma_connect or
 * rdma_accept), one message each way (the client sends first) and rdma_disconnect. Each failed call
 * prints perror's line and ends the conversation with -1.
 *
 * @param program rdma_server or rdma_client, as the programs name themselves in their lines
 * @param out     the program's stdout
 * @param err     its stderr (perror's lines)
 */
record EpConversation(String program, PrintStream out, PrintStream err) {
    /** A call on the endpoint that may fail. */
    @FunctionalInterface
    interface Call {
        void run();
    }

    /**
     * @param establishCall rdma_connect or rdma_accept, for perror
     * @param establish     that call on {@code id}
     * @param sendFirst     the client's order (send, then receive), else the server's
     * @return 0, or -1
     */
    int hold(RdmaEndpoint id, String establishCall, Call establish, boolean sendFirst) {
        int sendFlags = EpMessages.sendFlags(id.device());
        if (sendFlags == 0) {
            out.println(program + ": device doesn't support IBV_SEND_INLINE, using sge sends");
        }
        EpMessages msgs;
        try {
            msgs = EpMessages.register(id);
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_reg_msgs for recv_msg", e));
            return -1;
        }
        try (msgs) {
            if (call("rdma_post_recv", () -> id.postRecv(0, msgs.recv, 0, EpMessages.LENGTH)) != 0
                || call(establishCall, establish) != 0) {
                return -1;
            }
            WorkCompletion wc = new WorkCompletion();
            Call send = () -> id.postSend(0, msgs.send, 0, EpMessages.LENGTH, sendFlags);
            int ret = sendFirst
                ? calls("rdma_post_send", send, "rdma_get_send_comp", () -> id.getSendComp(wc),
                    "rdma_get_recv_comp", () -> id.getRecvComp(wc))
                : calls("rdma_get_recv_comp", () -> id.getRecvComp(wc), "rdma_post_send", send,
                    "rdma_get_send_comp", () -> id.getSendComp(wc));
            disconnect(id);
            return ret;
        }
    }

    /** Three calls in turn, up to the first that fails; 0 or -1. */
    private int calls(String name1, Call call1, String name2, Call call2, String name3, Call call3) {
        return call(name1, call1) != 0 || call(name2, call2) != 0 || call(name3, call3) != 0 ? -1 : 0;
    }

    /** The call; 0, or -1 with perror's line. */
    private int call(String name, Call call) {
        try {
            call.run();
            return 0;
        } catch (VerbsException e) {
            err.println(Strerror.perror(name, e));
            return -1;
        }
    }

    /** rdma_disconnect, whose status the programs ignore. */
    private static void disconnect(RdmaEndpoint ep) {
        try {
            ep.disconnect();
        } catch (VerbsException e) {
            // ignored, as the programs do
        }
    }

    /** rdma_destroy_ep, which has no status. */
    static void destroy(RdmaEndpoint ep) {
        try {
            ep.close();
        } catch (VerbsException e) {
            // rdma_destroy_ep has no status
        }
    }
}
