package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The security review's QPN attack (issue 11): the allocator wrapped without looking at the live
 * QPs, so a QP created after the wrap got a live QP's number and received its traffic.
 */
class QpnReuseFabricTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    @Test
    void aQpCreatedAfterTheWrapNeitherTakesALiveNumberNorItsTraffic() {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice devA = SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
        SoftDevice devB = (SoftDevice) SoftRnic.builder().name("b").address("10.0.0.2").openOn(fabric);
        ProtectionDomain pdA = devA.allocPd();
        ProtectionDomain pdB = devB.allocPd();
        CompletionQueue cqA = devA.createCq(64);
        CompletionQueue cqB = devB.createCq(64);
        MemoryRegion mrA = pdA.allocateMemory(4096, ACCESS);
        MemoryRegion mrB = pdB.allocateMemory(4096, ACCESS);
        QueuePair qa = pdA.createQp(uc(cqA));
        QueuePair victim = pdB.createQp(uc(cqB));
        List<QueuePair> created = new ArrayList<>();
        try {
            connect(qa, victim, devB);
            connect(victim, qa, devA);
            // Walk the allocator to its wrap: create and destroy QPs at its last numbers.
            devB.qpns().nextCandidate(QpnAllocator.LAST_QPN - 1);
            for (int i = 0; i < 2; i++) {
                QueuePair q = pdB.createQp(uc(cqB));
                assertTrue(q.qpNum() >= QpnAllocator.LAST_QPN - 1 && q.qpNum() <= QpnAllocator.LAST_QPN);
                q.close();
            }
            QueuePair intruder = pdB.createQp(uc(cqB));
            created.add(intruder);
            assertNotEquals(victim.qpNum(), intruder.qpNum(), "the new QP took the live QP's number");
            assertFalse(intruder.qpNum() == 0 || intruder.qpNum() == 1 || intruder.qpNum() == 0xFFFFFF,
                "reserved QPN 0x" + Integer.toHexString(intruder.qpNum()));
            intruder.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).accessFlags(ACCESS));
            intruder.postRecv(new ReceiveWorkRequest().wrId(66).sgList(ScatterGatherEntry.of(mrB, 2048, 64)));
            victim.postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(mrB, 0, 64)));
            byte[] message = "for the victim only".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            mrA.buffer().put(0, message);
            qa.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(mrA, 0, message.length)));
            WorkCompletion sent = await(fabric, cqA);
            assertEquals(WcStatus.SUCCESS, sent.status());
            WorkCompletion recv = await(fabric, cqB);
            assertEquals(7L, recv.wrId(), "the victim, not the new QP, receives its traffic");
            assertEquals(victim.qpNum(), recv.qpNum());
            byte[] got = new byte[message.length];
            mrB.buffer().get(0, got);
            assertArrayEquals(message, got);
            assertEquals(0, mrB.buffer().get(2048), "nothing reached the new QP's buffer");
            assertFalse(cqB.poll(new WorkCompletion()), "no completion for the new QP");
        } finally {
            created.forEach(QueuePair::close);
            qa.close();
            victim.close();
            mrA.close();
            mrB.close();
            cqA.close();
            cqB.close();
            pdA.close();
            pdB.close();
            devA.close();
            devB.close();
        }
    }

    private static QpInitAttributes uc(CompletionQueue cq) {
        return new QpInitAttributes().type(QpType.UC).cq(cq).maxSendWr(8).maxRecvWr(8);
    }

    private static void connect(QueuePair self, QueuePair peer, RdmaDevice peerDevice) {
        QpConnector.uc().accessFlags(ACCESS).connect(self, 0x10, RemoteQp.of(peer, 0x10, peerDevice.gids().get(0)));
    }

    private static WorkCompletion await(SimulatedFabric fabric, CompletionQueue cq) {
        WorkCompletion wc = new WorkCompletion();
        assertTrue(fabric.runUntil(() -> cq.poll(wc), 10_000_000_000L), "no completion");
        return wc;
    }
}
