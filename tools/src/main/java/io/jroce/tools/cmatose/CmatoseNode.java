package io.jroce.tools.cmatose;

import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * cmatose's {@code struct cmatest_node}: one connection's CM ID and the verbs resources
 * {@code init_node} makes on its device (a PD, a send and a receive CQ of -C entries, an RC QP of
 * -C sends and -C receives with every send signaled, and one -S byte buffer that every message is
 * sent from and received into), and its posts.
 */
final class CmatoseNode {
    /** -ENOMEM, init_node's status when a PD or CQ cannot be made. */
    static final int MINUS_ENOMEM = -12;

    final int index;
    RdmaCmId cmId;
    volatile boolean connected;
    private ProtectionDomain pd;
    CompletionQueue sendCq;
    CompletionQueue recvCq;
    private MemoryRegion mr;

    CmatoseNode(int index) {
        this.index = index;
    }

    /** init_node: 0, or its status with its line printed. */
    int init(CmatoseTest test) {
        try {
            pd = cmId.device().allocPd();
        } catch (VerbsException e) {
            test.out("cmatose: unable to allocate PD");
            return MINUS_ENOMEM;
        }
        int cqe = test.count != 0 ? test.count : 1;
        try {
            sendCq = cmId.device().createCq(cqe);
            recvCq = cmId.device().createCq(cqe);
        } catch (VerbsException e) {
            test.out("cmatose: unable to create CQ");
            return MINUS_ENOMEM;
        }
        try {
            cmId.createQp(pd, new QpInitAttributes().type(QpType.RC).sendCq(sendCq).recvCq(recvCq).maxSendWr(cqe)
                .maxRecvWr(cqe).maxSendSge(1).maxRecvSge(1).sqSigAll(true));
        } catch (VerbsException e) {
            test.err(Strerror.perror("cmatose: unable to create QP", e));
            return -1;
        }
        int ret = createMessage(test);
        if (ret != 0) {
            test.out("cmatose: failed to create messages: " + ret);
        }
        return ret;
    }

    /** create_message: no messages when -S is 0; else the buffer, registered for local write. */
    private int createMessage(CmatoseTest test) {
        if (test.size == 0) {
            test.count = 0;
        }
        if (test.count == 0) {
            return 0;
        }
        if (test.size < 0) {
            test.out("failed message allocation"); // malloc of a negative size
            return -1;
        }
        try {
            mr = pd.allocateMemory(test.size, AccessFlags.LOCAL_WRITE);
        } catch (VerbsException | OutOfMemoryError e) {
            test.out("failed to reg MR");
            return -1;
        }
        return 0;
    }

    /** post_recvs: -C receives of the buffer; 0, or the errno with cmatose's line. */
    int postRecvs(CmatoseTest test) {
        if (test.count == 0) {
            return 0;
        }
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(index).sgList(ScatterGatherEntry.of(mr, 0, test.size));
        for (int i = 0; i < test.count; i++) {
            try {
                cmId.qp().postRecv(wr);
            } catch (VerbsException e) {
                int errno = errno(e);
                test.out("failed to post receives: " + errno);
                return errno;
            }
        }
        return 0;
    }

    /** post_sends: -C SENDs of the buffer on a connected node; 0, or the errno with cmatose's line. */
    int postSends(CmatoseTest test) {
        if (!connected || test.count == 0) {
            return 0;
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(index).opcode(WrOpcode.SEND).sendFlags(0)
            .sgList(ScatterGatherEntry.of(mr, 0, test.size));
        for (int i = 0; i < test.count; i++) {
            try {
                cmId.qp().postSend(wr);
            } catch (VerbsException e) {
                int errno = errno(e);
                test.out("failed to post sends: " + errno);
                return errno;
            }
        }
        return 0;
    }

    /**
     * destroy_node: the QP, the CQs, the buffer and the PD, then the ID. What was made closes even
     * when the ID was given up (cmatose leaks it then; jroce's device would not close).
     */
    void destroy(CmatoseTest test) {
        if (cmId != null && cmId.qp() != null) {
            closeQuietly(cmId.qp());
        }
        closeQuietly(sendCq);
        closeQuietly(recvCq);
        closeQuietly(mr);
        closeQuietly(pd);
        if (cmId != null) {
            test.destroyId(cmId);
        }
    }

    /** ibv_post_*'s errno: ENOMEM for a full queue, else EINVAL. */
    private static int errno(VerbsException e) {
        return e instanceof QueueFullException ? 12 : 22;
    }

    private static void closeQuietly(AutoCloseable r) {
        if (r == null) {
            return;
        }
        try {
            r.close();
        } catch (Exception e) {
            // cmatose ignores the status of its destroys likewise
        }
    }
}
