package io.jroce.tools.cmcommon;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * What udaddy.c and mckey.c share, for their twins: the nodes, the message size and count, the
 * connections left, and the functions the two C programs repeat ({@code connect_events},
 * {@code verify_test_params}, {@code init_node} with {@code create_message}, {@code post_recvs},
 * {@code post_sends}, {@code poll_cqs}, the address handle of a resolved or joined node, and the
 * connect error). Output lines start with the program's name, as in each C program.
 */
public final class UdTest {
    /** The 40 bytes before a UD message in a receive buffer, where the network header lands. */
    public static final int GRH = 40;
    /** errno ENOMEM. */
    public static final int ENOMEM = 12;
    /** errno EINVAL. */
    public static final int EINVAL = 22;

    /** What a completion means to the program: false fails poll_cqs (udaddy's reply AH). */
    public interface CompletionHandler {
        /**
         * Handles one completion.
         *
         * @param node the node whose CQ it came from
         * @param wc the completion
         * @return false to fail poll_cqs
         */
        boolean onCompletion(UdNode node, WorkCompletion wc);
    }

    private final String program;
    private final PrintStream out;
    private final PrintStream err;
    private final int size;
    /** message_count: create_message sets it to 0 for a zero message size. */
    private int count;
    private final UdNode[] nodes;
    private int connectsLeft;

    /**
     * {@code connections} nodes with no ID yet; {@code program} names the output lines ("udaddy").
     *
     * @param program the program's name
     * @param connections how many nodes
     * @param size the message size
     * @param count the message count
     * @param out standard output
     * @param err standard error
     */
    public UdTest(String program, int connections, int size, int count, PrintStream out, PrintStream err) {
        this.program = program;
        this.out = out;
        this.err = err;
        this.size = size;
        this.count = count;
        this.nodes = new UdNode[Math.max(0, connections)];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new UdNode(i, null);
        }
        this.connectsLeft = connections;
    }

    /**
     * The nodes, by index.
     *
     * @return the nodes
     */
    public UdNode[] nodes() {
        return nodes;
    }

    /**
     * How many messages each node sends or receives.
     *
     * @return the count
     */
    public int count() {
        return count;
    }

    /**
     * The message size.
     *
     * @return the size in bytes
     */
    public int size() {
        return size;
    }

    /**
     * The node of {@code id}.
     *
     * @param id an ID of one of the nodes
     * @return its node
     */
    public UdNode nodeOf(RdmaCmId id) {
        for (UdNode node : nodes) {
            if (node.id == id) {
                return node;
            }
        }
        throw new IllegalStateException("an event for an ID of no node: " + id);
    }

    /**
     * One connection failed: it is no longer waited for.
     */
    public void connectError() {
        connectsLeft--;
    }

    /**
     * connect_events: hands CM events to {@code handler} (cma_handler) until every node is resolved or
     * joined, or a handler fails; each event is acknowledged after it.
     *
     * @param channel the channel of the nodes' IDs
     * @param handler cma_handler: 0, or an error that stops the loop
     * @return 0, or the error the C program returns
     * @throws InterruptedException the thread was interrupted while it waited
     */
    public int connectEvents(RdmaEventChannel channel, ToIntFunction<RdmaCmEvent> handler)
        throws InterruptedException {
        int ret = 0;
        while (connectsLeft > 0 && ret == 0) {
            RdmaCmEvent event = channel.get(1, TimeUnit.SECONDS);
            if (event == null) {
                continue; // rdma_get_cm_event blocks without end
            }
            try {
                ret = handler.applyAsInt(event);
            } finally {
                event.ack();
            }
        }
        return ret;
    }

    /**
     * The event's error line and the connect error; the event's status is the handler's.
     *
     * @param event the failed event
     * @return the event's status
     */
    public int eventError(RdmaCmEvent event) {
        out.println(program + ": event: RDMA_CM_EVENT_" + event.type().name() + ", error: " + event.status());
        connectError();
        return event.status();
    }

    /**
     * verify_test_params, init_node and create_message, then post_recvs when {@code receive}: a
     * message must fit the port's active MTU (UD has no segmentation).
     *
     * @param node the node
     * @param receive whether to post its receives
     * @return 0, or the error the C program returns
     */
    public int setUp(UdNode node, boolean receive) {
        int ret = verifyTestParams(node);
        if (ret == 0) {
            ret = initNode(node);
        }
        if (ret == 0 && receive) {
            ret = postRecvs(node);
        }
        return ret;
    }

    private int verifyTestParams(UdNode node) {
        int mtu = node.id.device().queryPort().activeMtu().bytes();
        if (count != 0 && size > mtu) {
            out.println(program + ": message_size " + size + " is larger than active mtu " + mtu);
            return -EINVAL;
        }
        return 0;
    }

    private int initNode(UdNode node) {
        RdmaDevice dev = node.id.device();
        try {
            node.pd = dev.allocPd();
        } catch (VerbsException e) {
            out.println(program + ": unable to allocate PD");
            return -ENOMEM;
        }
        try {
            node.cq = dev.createCq(count != 0 ? count * 2 : 2);
        } catch (VerbsException e) {
            out.println(program + ": unable to create CQ");
            return -ENOMEM;
        }
        int wrs = count != 0 ? count : 1;
        try {
            node.id.createQp(node.pd, new QpInitAttributes().type(QpType.UD).cq(node.cq).maxSendWr(wrs)
                .maxRecvWr(wrs).maxSendSge(1).maxRecvSge(1));
        } catch (VerbsException e) {
            err.println(Strerror.perror(program + ": unable to create QP", e));
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
            out.println(program + ": failed to create messages: -1");
            return -1;
        }
        return 0;
    }

    /** post_recvs: every receive into the node's one buffer, the GRH area first. */
    private int postRecvs(UdNode node) {
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
     * post_sends: {@code count} SENDs to the node's peer or group with the immediate data this QP's
     * number, from the buffer's start; the last with {@code lastFlags}, the others with {@code flags}.
     *
     * @param node the node
     * @param flags the send flags of all but the last
     * @param lastFlags the send flags of the last
     * @return 0, or the error the C program returns
     */
    public int postSends(UdNode node, int flags, int lastFlags) {
        if (!node.connected || count == 0) {
            return 0;
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(node.index).opcode(WrOpcode.SEND_WITH_IMM)
            .immData(node.id.qp().qpNum()).ud(node.ah, node.remoteQpn, node.remoteQkey)
            .sgList(ScatterGatherEntry.of(node.mr, 0, size));
        for (int i = 0; i < count; i++) {
            wr.sendFlags(i == count - 1 ? lastFlags : flags);
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
     * poll_cqs: {@code count} completions of each connected node, of whatever status (neither program
     * reads it), waiting without end as their busy polls do; each goes to {@code handler}.
     *
     * @param handler what each completion means
     * @return 0, or the error the C program returns
     * @throws InterruptedException the thread was interrupted while it waited
     */
    public int pollCqs(CompletionHandler handler) throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        for (UdNode node : nodes) {
            if (!node.connected) {
                continue;
            }
            int done = 0;
            while (done < count) {
                if (node.cq.pollBlocking(wc, 1, TimeUnit.SECONDS)) {
                    done++;
                    if (!handler.onCompletion(node, wc)) {
                        return -1;
                    }
                }
            }
        }
        return 0;
    }

    /**
     * The node's peer or group as a resolved or joined event names it: its QPN and Q_Key, and an
     * address handle of {@code av}; the node is connected, or it is a connect error.
     *
     * @param node the node
     * @param qpn the peer's or group's QPN
     * @param qkey its Q_Key
     * @param av the address vector to it
     * @return 0, or the error the C program returns
     */
    public int connected(UdNode node, int qpn, int qkey, AddressVector av) {
        node.remoteQpn = qpn;
        node.remoteQkey = qkey;
        try {
            node.ah = node.pd.createAddressHandle(av);
        } catch (VerbsException e) {
            out.println(program + ": failure creating address handle");
            connectError();
            return -1;
        }
        node.connected = true;
        connectsLeft--;
        return 0;
    }

    /**
     * A node connected without an address handle yet (a server's, whose reply AH comes from a receive).
     *
     * @param node the node
     */
    public void accepted(UdNode node) {
        node.connected = true;
        connectsLeft--;
    }

    /** destroy_nodes: each node's resources, then its ID. */
    public void destroy() {
        for (UdNode node : nodes) {
            node.destroy();
            if (node.id != null) {
                node.id.close();
            }
        }
    }

    /**
     * The errno ibv_post_send or ibv_post_recv returns where jroce throws.
     *
     * @param e what jroce threw
     * @return the errno
     */
    public static int errno(VerbsException e) {
        return e instanceof QueueFullException || e instanceof ResourceLimitException ? ENOMEM : EINVAL;
    }
}
