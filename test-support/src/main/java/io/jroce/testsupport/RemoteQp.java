package io.jroce.testsupport;

import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.QueuePair;

/**
 * What a queue pair must know of the one it connects to, as ibv_rc_pingpong's peers exchange it:
 * its QP number, the first PSN it sends (our {@code rq_psn}), its GID and the UDP port it listens
 * on (4791 unless two devices share one address).
 */
public record RemoteQp(int qpn, int psn, Gid gid, int udpPort) {
    /** A peer on the RoCEv2 port, e.g. rxe. */
    public RemoteQp(int qpn, int psn, Gid gid) {
        this(qpn, psn, gid, AddressVector.ROCE_V2_PORT);
    }

    /** {@code qp} of a device on the RoCEv2 port (the simulated fabric's devices). */
    public static RemoteQp of(QueuePair qp, int psn, Gid gid) {
        return new RemoteQp(qp.qpNum(), psn, gid);
    }

    /** {@code qp} of a device on {@code udpPort}. */
    public static RemoteQp of(QueuePair qp, int psn, Gid gid, int udpPort) {
        return new RemoteQp(qp.qpNum(), psn, gid, udpPort);
    }
}
