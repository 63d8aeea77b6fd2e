package io.jroce.tools.lesson;

import io.jroce.rnic.cm.AcceptParams;
import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.CmEvents;
import io.jroce.rnic.cm.CmState;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.ConnectionManager;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.verbs.Mtu;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The connection managers of a lesson's two devices, as RDMA CM drives them: each is seeded, so
 * the comm IDs, CA GUIDs and transaction IDs are the same on every run. B listens on a service
 * and accepts or rejects as the lesson says; A connects its RC QP, answers a REP with an RTU, and
 * disconnects when asked. What each manager reports goes into the lesson's list of events.
 */
final class CmScene {
    /** RDMA CM's service ID of TCP port 7471 (rping's), in the RDMA_PS_TCP port space. */
    static final long SERVICE = ConnectionManager.tcpServiceId(7471);
    /** A service nobody listens on. */
    static final long NO_SERVICE = ConnectionManager.tcpServiceId(7472);
    /** The UDP port the CMA header says A's side connects from. */
    static final int SOURCE_PORT = 50000;

    private final LessonRig rig;
    private final ConnectionManager cmA;
    private final ConnectionManager cmB;
    private final boolean acceptAtB;
    private CmConnection active;

    /** What one side's manager reports, recorded and answered as an application would. */
    private final class Application implements CmEvents {
        private final boolean atA;

        Application(boolean atA) {
            this.atA = atA;
        }

        private void record(String text) {
            rig.events.add(new QpEvent.CmEvent(rig.fabric.nowNs(), atA, text));
        }

        @Override
        public void onConnectRequest(CmConnection c, ConnectRequest r) {
            if (acceptAtB) {
                record(String.format("a connect request from QP 0x%06x (first PSN %d) for service 0x%016x: the "
                    + "application accepts with QP 0x%06x", r.remoteQpn(), r.startingPsn(), c.serviceId(),
                    rig.b.qp.qpNum()));
                cmB.accept(c, new AcceptParams(rig.b.qp.qpNum(), rig.setup.psnB(), 1, 1, 7, new byte[0]));
            } else {
                record("a connect request for service " + String.format("0x%016x", c.serviceId())
                    + ": the application rejects it");
                cmB.reject(c, new byte[0]);
            }
        }

        @Override
        public void onReply(CmConnection c, ConnectReply r) {
            record(String.format("the reply: B's QP 0x%06x starts at PSN %d; A's QP can go to RTR and RTS, and A "
                + "answers ready to use", r.remoteQpn(), r.startingPsn()));
            cmA.ready(c);
        }

        @Override
        public void onEstablished(CmConnection c) {
            record("ESTABLISHED: the connection is up, " + (atA ? "A" : "B") + " may send");
        }

        @Override
        public void onRejected(CmConnection c, int reason) {
            record("REJECTED, reason " + reason + " (" + rejectReason(reason) + ")");
        }

        @Override
        public void onDisconnected(CmConnection c) {
            record("DISCONNECTED" + (c.state() == CmState.DREQ_RCVD ? ": the application disconnects too" : ""));
            if (c.state() == CmState.DREQ_RCVD) {
                (atA ? cmA : cmB).disconnect(c);
            }
        }

        @Override
        public void onTimeWaitExit(CmConnection c) {
            record("TimeWait is over: the connection and its comm ID are forgotten");
        }
    }

    CmScene(LessonRig rig, boolean acceptAtB) {
        this.rig = rig;
        this.acceptAtB = acceptAtB;
        cmA = new ConnectionManager(((SoftDevice) rig.a.device).gsi(), new Random(1));
        cmB = new ConnectionManager(((SoftDevice) rig.b.device).gsi(), new Random(2));
        cmB.listen(SERVICE, new Application(false));
    }

    /** A sends a REQ for {@code service} and the fabric runs {@code ns}. */
    void connect(long service, long ns) {
        ConnectParams p = new ConnectParams(service, IpAddresses.toGidBytes(LessonRig.ADDRESS_A),
            IpAddresses.toGidBytes(LessonRig.ADDRESS_B), rig.a.qp.qpNum(), rig.setup.psnA(), 1, 1, 7, 7,
            Mtu.MTU_1024.enumValue(), cmaHeader());
        rig.fabric.execute(() -> active = cmA.connect(p, new Application(true)));
        rig.runFor(ns);
    }

    /** A sends a DREQ and the fabric runs {@code ns}. */
    void disconnect(long ns) {
        CmConnection c = active;
        rig.fabric.execute(() -> cmA.disconnect(c));
        rig.runFor(ns);
    }

    /** RDMA CM's header at the start of a REQ's private data: version, IPv4, A's port, both addresses. */
    private static byte[] cmaHeader() {
        byte[] bytes = new byte[CmaHeaderFlyweight.LENGTH];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        new CmaHeaderFlyweight().wrap(b, 0).cmaVersion(CmaHeaderFlyweight.CMA_VERSION).ipVersion(4).port(SOURCE_PORT);
        b.putBytes(CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, IpAddresses.toGidBytes(LessonRig.ADDRESS_A));
        b.putBytes(CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, IpAddresses.toGidBytes(LessonRig.ADDRESS_B));
        return bytes;
    }

    /** The REJ reasons the lessons meet (IBTA 12.6.7's table of reasons). */
    static String rejectReason(int reason) {
        return switch (reason) {
            case 8 -> "invalid service ID: nobody listens on it";
            case 28 -> "consumer reject: the application said no";
            default -> "see IBTA 12.6.7";
        };
    }
}
