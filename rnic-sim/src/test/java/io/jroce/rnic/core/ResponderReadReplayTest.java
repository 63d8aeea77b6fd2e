package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.Psn;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpState;

/**
 * Issue 11: the responder replays a duplicate RDMA READ only when it matches a READ it executed
 * (IBTA 9.7.5.1.3; rxe keeps the READs it served for this). Built alone, see {@link EngineRig}.
 */
class ResponderReadReplayTest {
    private static final int EPSN = 1000;

    private static EngineRig rig() {
        EngineRig rig = new EngineRig(256).rts(0, 0, 7, 0);
        rig.qp.accessFlags = AccessFlags.REMOTE_READ;
        rig.t.responder.reset(EPSN);
        return rig;
    }

    @Test
    void aReadWithAPastPsnNeverReceivedIsNotExecuted() {
        EngineRig rig = rig();
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        int[] pastPsns = {EPSN - 1, EPSN - 5, Psn.add(EPSN, -0x7FFFFF), Psn.add(EPSN, -0x400000)};
        for (int psn : pastPsns) {
            rig.readRequest(psn & Psn.MASK, mr.address(), mr.rkey(), 16, 0);
        }
        rig.sendResponses();
        assertEquals(List.of(), rig.transport.take());
        assertEquals(pastPsns.length, rig.counters.get(Counter.DUPLICATE_REQUEST));
        assertEquals(pastPsns.length, rig.counters.get(Counter.DROP_UNMATCHED_READ));
        assertEquals(EPSN, rig.t.responder.expectedPsn());
        assertEquals(QpState.RTS, rig.qp.state);
    }

    @Test
    void aDuplicateOfAnExecutedReadIsReplayedAndOnlyWithinIt() {
        EngineRig rig = rig();
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        EngineRig.TestRegion other = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        int mtu = EngineRig.MTU;
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 3 * mtu, 0);
        rig.sendResponses();
        assertEquals(List.of("RC_RDMA_READ_RESPONSE_FIRST 1000", "RC_RDMA_READ_RESPONSE_MIDDLE 1001",
            "RC_RDMA_READ_RESPONSE_LAST 1002"), rig.transport.take());
        assertEquals(EPSN + 3, rig.t.responder.expectedPsn());

        // The requester resends from the first response it lacks, as rxe and jroce do.
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 3 * mtu, 0);
        rig.sendResponses(); // answered before the next duplicate comes (a replay queued restarts instead)
        rig.readRequest(EPSN + 1, mr.address() + mtu, mr.rkey(), 2 * mtu, 0);
        rig.sendResponses();
        assertEquals(List.of("RC_RDMA_READ_RESPONSE_FIRST 1000", "RC_RDMA_READ_RESPONSE_MIDDLE 1001",
            "RC_RDMA_READ_RESPONSE_LAST 1002", "RC_RDMA_READ_RESPONSE_FIRST 1001",
            "RC_RDMA_READ_RESPONSE_LAST 1002"), rig.transport.take());

        // The same PSN with another key, outside the range read, or running past its last PSN: dropped.
        rig.readRequest(EPSN, other.address(), other.rkey(), 3 * mtu, 0);
        rig.readRequest(EPSN, mr.address() + 4 * mtu, mr.rkey(), mtu, 0);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 4 * mtu, 0);
        rig.readRequest(EPSN + 2, mr.address() + 2 * mtu, mr.rkey(), 2 * mtu, 0);
        rig.sendResponses();
        assertEquals(List.of(), rig.transport.take());
        assertEquals(4, rig.counters.get(Counter.DROP_UNMATCHED_READ));
        assertEquals(EPSN + 3, rig.t.responder.expectedPsn());
        assertEquals(QpState.RTS, rig.qp.state);
    }
}
