package io.jroce.tools.lesson;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Two devices on a simulated fabric with a fixed seed, A (10.0.0.1) and B (10.0.0.2), with one RC
 * QP each connected with fixed PSNs, a memory region each, and a recorder of every packet and
 * protocol event. A lesson's script posts work requests and runs the fabric in virtual time;
 * nothing in it depends on the wall clock, so every run gives the same packets at the same times.
 */
final class LessonRig implements AutoCloseable {
    static final String ADDRESS_A = "10.0.0.1";
    static final String ADDRESS_B = "10.0.0.2";
    static final long SEED = 15;
    static final int MR_SIZE = 64 * 1024;
    /** Where the capture shows B's memory region, and its rkey. */
    static final long SHOWN_VA_B = 0x20000;
    static final int SHOWN_RKEY_B = 0x0000b0b0;
    static final long SHOWN_VA_A = 0x10000;
    static final int SHOWN_RKEY_A = 0x0000a0a0;
    /** How long a script waits for a completion, in virtual time. */
    private static final long MAX_WAIT_NS = 60_000_000_000L;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;

    /** One device with its QP. */
    static final class Side implements AutoCloseable {
        final RdmaDevice device;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final EventRecorder events;

        Side(SimulatedFabric fabric, String name, String address, EventRecorder events) {
            this.events = events;
            device = SoftRnic.builder().name(name).address(address).protocolEvents(events).openOn(fabric);
            pd = device.allocPd();
            cq = device.createCq(64);
            qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(32).maxRecvWr(32));
            mr = pd.allocateMemory(MR_SIZE, ACCESS);
        }

        @Override
        public void close() {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            device.close();
        }
    }

    final Setup setup;
    final SimulatedFabric fabric;
    final List<QpEvent> events = new ArrayList<>();
    final FrameRecorder recorder;
    final Side a;
    final Side b;

    LessonRig(Setup setup) {
        this.setup = setup;
        fabric = SimulatedFabric.builder().seed(SEED).build();
        recorder = new FrameRecorder(fabric, IpAddresses.toGidBytes(ADDRESS_A));
        fabric.fault(recorder);
        a = new Side(fabric, "jroce0", ADDRESS_A, new EventRecorder(fabric, true, events));
        b = new Side(fabric, "jroce1", ADDRESS_B, new EventRecorder(fabric, false, events));
        recorder.showAs(a.mr.address(), a.mr.rkey(), MR_SIZE, SHOWN_VA_A, SHOWN_RKEY_A);
        recorder.showAs(b.mr.address(), b.mr.rkey(), MR_SIZE, SHOWN_VA_B, SHOWN_RKEY_B);
        connect(a, b, setup.psnA(), setup.psnB());
        connect(b, a, setup.psnB(), setup.psnA());
        a.events.start();
        b.events.start();
    }

    /** RESET to RTS towards {@code peer} (IBTA 11.2.5.2's attributes for RC), with the lesson's timers. */
    private void connect(Side side, Side peer, int sqPsn, int rqPsn) {
        QpConnector.rc().accessFlags(ACCESS).pathMtu(setup.mtu()).minRnrTimer(setup.minRnrTimer())
            .timeout(setup.timeout()).retryCount(setup.retryCount()).rnrRetry(setup.rnrRetry())
            .connect(side.qp, sqPsn, RemoteQp.of(peer.qp, rqPsn, peer.device.gids().get(0)));
    }

    /** Adds a scripted fault; rules act on packets sent from now on. */
    FaultRule fault(FaultRule rule) {
        return fabric.faults().add(rule);
    }

    /** B posts a receive WQE for {@code length} bytes. */
    void postReceive(long wrId, int length) {
        b.qp.postRecv(new ReceiveWorkRequest().wrId(wrId).sgList(ScatterGatherEntry.of(b.mr, 0, length)));
    }

    /** A posts a signalled SEND of {@code length} bytes. */
    void send(long wrId, int length) {
        post(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND), length);
    }

    /** A posts a signalled RDMA WRITE of {@code length} bytes to the start of B's region. */
    void write(long wrId, int length) {
        post(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).remoteAddress(b.mr.address())
            .rkey(b.mr.rkey()), length);
    }

    /** A posts a signalled RDMA READ of {@code length} bytes from the start of B's region. */
    void read(long wrId, int length) {
        post(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_READ).remoteAddress(b.mr.address())
            .rkey(b.mr.rkey()), length);
    }

    /** A posts a signalled FETCH_AND_ADD of {@code add} to the 8 bytes at {@code offset} in B's region. */
    void fetchAdd(long wrId, int offset, long add) {
        post(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
            .remoteAddress(b.mr.address() + offset).rkey(b.mr.rkey()).compareAdd(add), 8);
    }

    private void post(SendWorkRequest wr, int length) {
        a.qp.postSend(wr.sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(a.mr, 0, length)));
    }

    /** Runs the fabric until A has {@code atA} more completions and B {@code atB}, recording each as it comes. */
    void await(int atA, int atB) {
        int[] got = {0, 0};
        WorkCompletion wc = new WorkCompletion();
        boolean done = fabric.runUntil(() -> {
            got[0] += poll(a, wc, atA - got[0]);
            got[1] += poll(b, wc, atB - got[1]);
            return got[0] == atA && got[1] == atB;
        }, MAX_WAIT_NS);
        if (!done) {
            throw new IllegalStateException("the lesson's script waited in vain for " + atA + " completions at A and "
                + atB + " at B; got " + got[0] + " and " + got[1]);
        }
    }

    private int poll(Side side, WorkCompletion wc, int wanted) {
        int n = 0;
        while (n < wanted && side.cq.poll(wc)) {
            n++;
            events.add(new QpEvent.Completion(fabric.nowNs(), side == a, wc.wrId(), String.valueOf(wc.opcode()),
                wc.status(), wc.byteLen()));
        }
        return n;
    }

    /** The 8 bytes at {@code offset} of B's region, as an atomic sees them (host order). */
    long counterOfB(int offset) {
        return b.mr.buffer().order(ByteOrder.nativeOrder()).getLong(offset);
    }

    /** Records what the script saw in B's memory, for the list of what the QPs did. */
    void observeB(String text) {
        events.add(new QpEvent.Observation(fabric.nowNs(), false, text));
    }

    /** Runs the fabric for {@code ns} more of virtual time (the ACKs still on their way arrive). */
    void runFor(long ns) {
        fabric.runFor(ns);
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }
}
