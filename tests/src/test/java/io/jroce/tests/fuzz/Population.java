package io.jroce.tests.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.AcceptParams;
import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.CmEvents;
import io.jroce.rnic.cm.CmState;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.ConnectionManager;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.fabric.FabricEndpoint;
import io.jroce.stack.fabric.FabricFault;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.WrOpcode;

/**
 * The fuzzed victim device (10.0.0.1) and its peer (10.0.0.2) on a fresh simulated fabric, MTU 256:
 * the victim's RC, UC and UD QPs and two RC QPs sharing an SRQ, each connected to a QP of the
 * peer and in RTS, receives posted, five memory regions in {@link GuardedMemory}, and a SEND and a
 * READ outstanding on the RC QP; a connection manager on each (QP1) that listens on
 * {@link #CM_SERVICE}, accepts every request, and holds two established connections with the
 * other, the victim active in the first and passive in the second. An extra
 * endpoint injects datagrams with any source address (its ICRC is computed for that address, so
 * they pass the fabric's exact ICRC check).
 */
final class Population implements AutoCloseable {
    static final String VICTIM = "10.0.0.1";
    static final String PEER = "10.0.0.2";
    static final String STRANGER = "10.0.0.99";
    static final int QKEY = 0x11111111;
    static final int RECV_BYTES = 1024;
    static final int UD_RECV_BYTES = 40 + 256;
    /** Index of each victim QP in {@link #qps}. */
    static final int RC = 0;
    static final int UC = 1;
    static final int UD = 2;
    static final int SRQ_RC_1 = 3;
    static final int SRQ_RC_2 = 4;
    static final int QP_COUNT = 5;
    /** The service both connection managers listen on (RDMA CM's TCP port 7174). */
    static final long CM_SERVICE = ConnectionManager.tcpServiceId(7174);
    /**
     * Index of each victim MR in {@link #mrs}: remote read/write/atomic, remote read only, local only,
     * receives, and the destination of the victim's own outstanding RDMA READ.
     */
    static final int MR_REMOTE_RW = 0;
    static final int MR_REMOTE_READ = 1;
    static final int MR_LOCAL = 2;
    static final int MR_RECV = 3;
    static final int MR_READ_DEST = 4;
    /** The victim RC QP's outstanding requests: a SEND (1 PSN) and a READ of 512 bytes (2 PSNs at MTU 256). */
    static final int RC_OUTSTANDING_PSNS = 3;
    private static final int READ_LENGTH = 512;
    private static final int RC_ACCESS = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
    private static final int RECVS_PER_QP = 4;
    private static final int SRQ_RECVS = 8;

    final SimulatedFabric fabric = new SimulatedFabric();
    final RdmaDevice victim;
    final RdmaDevice peer;
    final GuardedMemory memory;
    final List<QueuePair> qps = new ArrayList<>();
    final int[] firstRecvPsn = new int[QP_COUNT];
    /** The first PSN each victim QP sent; {@link #outstandingPsns} from it are unacknowledged. */
    final int[] firstSendPsn = new int[QP_COUNT];
    final int[] outstandingPsns = new int[QP_COUNT];
    final List<MemoryRegion> mrs = new ArrayList<>();
    final byte[] victimAddress = IpAddresses.toGidBytes(VICTIM);
    final byte[] peerAddress = IpAddresses.toGidBytes(PEER);
    final byte[] strangerAddress = IpAddresses.toGidBytes(STRANGER);
    /** The victim's connection manager and its live connections (index 0: victim active, 1: passive). */
    final ConnectionManager cm;
    final List<CmConnection> cmConnections = new ArrayList<>();
    private final FabricEndpoint injector;
    private final List<AutoCloseable> resources = new ArrayList<>();

    Population() {
        victim = keep(SoftRnic.builder().name("victim").address(VICTIM).activeMtu(Mtu.MTU_256).openOn(fabric));
        peer = keep(SoftRnic.builder().name("peer").address(PEER).activeMtu(Mtu.MTU_256).openOn(fabric));
        injector = fabric.attach(STRANGER, 4791, new Counters());
        ProtectionDomain pdV = keep(victim.allocPd());
        ProtectionDomain pdP = keep(peer.allocPd());
        CompletionQueue cqV = keep(victim.createCq(1024));
        CompletionQueue cqP = keep(peer.createCq(1024));
        int recvLength = RECVS_PER_QP * RECV_BYTES * 2 + RECVS_PER_QP * UD_RECV_BYTES + SRQ_RECVS * RECV_BYTES;
        memory = new GuardedMemory(4096, 1024, 1024, recvLength, READ_LENGTH);
        int[] access = {AccessFlags.LOCAL_WRITE | RC_ACCESS, AccessFlags.REMOTE_READ, 0, AccessFlags.LOCAL_WRITE,
            AccessFlags.LOCAL_WRITE};
        for (int i = 0; i < access.length; i++) {
            mrs.add(keep(pdV.registerMemory(memory.region(i), access[i])));
        }
        memory.allowWrites(MR_REMOTE_RW, "remote read/write region");
        memory.allowWrites(MR_RECV, "posted receives");
        memory.allowWrites(MR_READ_DEST, "the outstanding READ's destination");
        MemoryRegion peerMr = keep(pdP.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ));
        SharedReceiveQueue srq = keep(pdV.createSrq(16, 1));
        QpType[] types = {QpType.RC, QpType.UC, QpType.UD, QpType.RC, QpType.RC};
        for (int i = 0; i < QP_COUNT; i++) {
            QpInitAttributes init = new QpInitAttributes().type(types[i]).cq(cqV).maxSendWr(16).maxRecvWr(16);
            QueuePair v = keep(pdV.createQp(i >= SRQ_RC_1 ? init.srq(srq) : init));
            QueuePair p = keep(pdP.createQp(new QpInitAttributes().type(types[i]).cq(cqP).maxSendWr(16).maxRecvWr(16)));
            firstRecvPsn[i] = 0x1000 * (i + 1);
            firstSendPsn[i] = 0x800000 + i;
            if (types[i] == QpType.UD) {
                ud(v);
                ud(p);
            } else {
                connect(v, p, peer, firstRecvPsn[i], firstSendPsn[i]);
                connect(p, v, victim, firstSendPsn[i], firstRecvPsn[i]);
            }
            qps.add(v);
        }
        MemoryRegion recv = mrs.get(MR_RECV);
        long at = 0;
        for (int i : new int[] {RC, UC, UD}) {
            int size = i == UD ? UD_RECV_BYTES : RECV_BYTES;
            for (int r = 0; r < RECVS_PER_QP; r++, at += size) {
                qps.get(i).postRecv(new ReceiveWorkRequest().wrId(i * 100 + r).sgList(ScatterGatherEntry.of(recv, at, size)));
            }
        }
        for (int r = 0; r < SRQ_RECVS; r++, at += RECV_BYTES) {
            srq.postRecv(new ReceiveWorkRequest().wrId(1000 + r).sgList(ScatterGatherEntry.of(recv, at, RECV_BYTES)));
        }
        leaveRequestsOutstanding(peerMr);
        cm = new ConnectionManager(((SoftDevice) victim).gsi(), new java.util.Random(7));
        ConnectionManager peerCm = new ConnectionManager(((SoftDevice) peer).gsi(), new java.util.Random(8));
        cm.listen(CM_SERVICE, new AcceptingConsumer(cm, cmConnections));
        peerCm.listen(CM_SERVICE, new AcceptingConsumer(peerCm, new ArrayList<>()));
        byte[] cmaHeader = new byte[36];
        cmaHeader[1] = 0x40;
        fabric.execute(() -> cm.connect(new ConnectParams(CM_SERVICE, victimAddress, peerAddress, qps.get(RC).qpNum(),
            0x100, 1, 1, 7, 7, 1, cmaHeader), new AcceptingConsumer(cm, cmConnections)));
        fabric.runFor(1_000_000);
        fabric.execute(() -> peerCm.connect(new ConnectParams(CM_SERVICE, peerAddress, victimAddress, 0x42, 0x200, 1, 1,
            7, 7, 1, cmaHeader), new AcceptingConsumer(peerCm, new ArrayList<>())));
        fabric.runFor(1_000_000);
        if (cmConnections.size() != 2 || cmConnections.stream().anyMatch(c -> c.state() != CmState.ESTABLISHED)) {
            throw new IllegalStateException("the CM connections did not establish: " + cmConnections);
        }
    }

    /**
     * A CM consumer that accepts every request, answers every REP with an RTU and every DREQ with a
     * DREP, and records the connections it sees.
     */
    private record AcceptingConsumer(ConnectionManager cm, List<CmConnection> seen) implements CmEvents {
        @Override
        public void onConnectRequest(CmConnection c, ConnectRequest r) {
            seen.add(c);
            cm.accept(c, new AcceptParams(0x33, 0x300, 1, 1, 7, new byte[0]));
        }

        @Override
        public void onReply(CmConnection c, ConnectReply r) {
            seen.add(c);
            cm.ready(c);
        }

        @Override
        public void onEstablished(CmConnection c) {
        }

        @Override
        public void onRejected(CmConnection c, int reason) {
        }

        @Override
        public void onUnreachable(CmConnection c) {
        }

        @Override
        public void onDisconnected(CmConnection c) {
            if (c.state() == CmState.DREQ_RCVD) {
                cm.disconnect(c);
            }
        }

        @Override
        public void onTimeWaitExit(CmConnection c) {
        }
    }

    /**
     * Gives the victim's RC requester a SEND and a READ the peer never answers (its responses are
     * dropped), so that forged ACKs, NAKs and READ responses meet a completer with work to do.
     */
    private void leaveRequestsOutstanding(MemoryRegion peerMr) {
        fabric.fault(d -> !Arrays.equals(d.src(), peerAddress));
        QueuePair rc = qps.get(RC);
        rc.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrs.get(MR_LOCAL), 0, 64)));
        rc.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(peerMr.address()).rkey(peerMr.rkey()).sgList(ScatterGatherEntry.of(mrs.get(MR_READ_DEST), 0,
                READ_LENGTH)));
        fabric.runFor(1_000_000);
        fabric.fault(FabricFault.NONE);
        outstandingPsns[RC] = RC_OUTSTANDING_PSNS;
    }

    private static void ud(QueuePair qp) {
        QpConnector.ud(QKEY).activate(qp, 0x42);
    }

    private static void connect(QueuePair self, QueuePair other, RdmaDevice otherDevice, int rqPsn, int sqPsn) {
        QpConnector connector = self.type() == QpType.UC ? QpConnector.uc().accessFlags(AccessFlags.REMOTE_WRITE)
            : QpConnector.rc().accessFlags(RC_ACCESS); // RC: 16 READs/atomics each way, timers 12 and 14, 7 retries
        connector.pathMtu(Mtu.MTU_256).connect(self, sqPsn, RemoteQp.of(other, rqPsn, otherDevice.gids().get(0)));
    }

    /** Sends {@code packet} (BTH onward, without ICRC) from {@code source} to the victim's UDP port 4791. */
    void inject(byte[] packet, byte[] source) {
        injector.send(new UnsafeBuffer(packet), 0, packet.length, source, victimAddress, 4791);
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    @Override
    public void close() throws Exception {
        injector.close();
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }
}
