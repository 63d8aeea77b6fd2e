package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The security review's rkey attacks (issue 11): keys were {@code index << 8 | variant} with the
 * index counting up and a fixed variant sequence, so every device's first region had the same
 * rkey and a blind UC sweep (no PSN to know, wrong guesses dropped silently) found one quickly.
 */
class RkeyGuessingFabricTest {
    private static final int REGION = 1 << 12;
    private static final int WRITE = 64;
    private static final int BATCH = 128;

    @Test
    void twoFreshDevicesGiveTheirFirstRegionsDifferentKeys() {
        SimulatedFabric fabric = new SimulatedFabric();
        try (RdmaDevice d1 = SoftRnic.builder().name("v1").address("10.0.0.1").openOn(fabric);
             RdmaDevice d2 = SoftRnic.builder().name("v2").address("10.0.0.2").openOn(fabric)) {
            ProtectionDomain pd1 = d1.allocPd();
            ProtectionDomain pd2 = d2.allocPd();
            MemoryRegion mr1 = pd1.allocateMemory(REGION, FabricPair.ACCESS);
            MemoryRegion mr2 = pd2.allocateMemory(REGION, FabricPair.ACCESS);
            assertNotEquals(mr1.rkey(), mr2.rkey(), "the first region of two devices must not share an rkey");
            assertNotEquals(0, mr1.rkey());
            assertNotEquals(0, mr2.rkey());
            mr1.close();
            mr2.close();
            pd1.close();
            pd2.close();
        }
    }

    /**
     * An attacker with a UC QP connected to the victim sweeps the old scheme's neighbourhood
     * ({@code index << 8 | variant} for indexes 1..16, every variant: 4,096 guesses) with RDMA
     * WRITEs at the victim region's address. Not one byte may land. (With 32 random bits the
     * victim's key falls among the guesses with probability 4096 * 2^-32, about 10^-6.)
     */
    @Test
    void aBlindUcSweepOverTheOldKeyNeighbourhoodWritesNothing() {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice attacker = SoftRnic.builder().name("attacker").address("10.0.0.1").openOn(fabric);
        RdmaDevice victim = SoftRnic.builder().name("victim").address("10.0.0.2").openOn(fabric);
        ProtectionDomain pdA = attacker.allocPd();
        ProtectionDomain pdV = victim.allocPd();
        CompletionQueue cqA = attacker.createCq(1024);
        CompletionQueue cqV = victim.createCq(1024);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        MemoryRegion payload = pdA.allocateMemory(WRITE, access);
        MemoryRegion target = pdV.allocateMemory(REGION, access);
        for (int i = 0; i < WRITE; i++) {
            payload.buffer().put(i, (byte) 0xEE);
        }
        QueuePair qa = pdA.createQp(new QpInitAttributes().type(QpType.UC).cq(cqA).maxSendWr(BATCH));
        QueuePair qv = pdV.createQp(new QpInitAttributes().type(QpType.UC).cq(cqV));
        connectUc(qa, qv, victim);
        connectUc(qv, qa, attacker);
        try {
            int guesses = 0;
            for (int index = 1; index <= 16; index++) {
                for (int variant = 0; variant < 256; variant += BATCH) {
                    for (int v = variant; v < variant + BATCH; v++) {
                        qa.postSend(new SendWorkRequest().wrId(index << 8 | v).opcode(WrOpcode.RDMA_WRITE)
                            .sendFlags(SendFlags.SIGNALED).remoteAddress(target.address()).rkey(index << 8 | v)
                            .sgList(ScatterGatherEntry.of(payload, 0, WRITE)));
                    }
                    for (WorkCompletion wc : await(fabric, cqA, BATCH)) {
                        assertEquals(WcStatus.SUCCESS, wc.status(), "UC completes a write once it is sent");
                    }
                    guesses += BATCH;
                }
            }
            assertEquals(4096, guesses);
            assertTrue(fabric.runUntil(() -> victim.counters().get("rcvd_pkts") >= 4096, 10_000_000_000L),
                "the victim heard every guess: " + victim.counters());
            for (int i = 0; i < REGION; i++) {
                assertEquals(0, target.buffer().get(i), "a guessed rkey wrote byte " + i + " of the victim's region");
            }
            assertEquals(4096L, victim.counters().get("drop_uc_access"), "every guess was dropped and counted");
            // The channel works: the real rkey lands, so the sweep was heard and refused.
            qa.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(target.address()).rkey(target.rkey()).sgList(ScatterGatherEntry.of(payload, 0, WRITE)));
            await(fabric, cqA, 1);
            assertTrue(fabric.runUntil(() -> target.buffer().get(WRITE - 1) == (byte) 0xEE, 1_000_000_000L),
                "the write with the real rkey must land");
        } finally {
            qa.close();
            qv.close();
            payload.close();
            target.close();
            cqA.close();
            cqV.close();
            pdA.close();
            pdV.close();
            attacker.close();
            victim.close();
        }
    }

    /** ibv_inc_rkey: the consumer chooses a type 2 window's low 8 bits; the upper 24 stay the device's. */
    @Test
    void aType2BindKeepsTheConsumersLowByte() {
        try (FabricPair p = new FabricPair(Mtu.MTU_1024, 1 << 16)) {
            MemoryRegion mr = p.b.pd.allocateMemory(1 << 14, FabricPair.ACCESS | AccessFlags.MW_BIND);
            MemoryWindow mw = p.b.pd.allocMemoryWindow(2);
            int chosen = (mw.rkey() & ~0xFF) | ((mw.rkey() + 0x42) & 0xFF);
            p.b.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
                .bindMw(mw, chosen, mr, mr.address(), 4096, AccessFlags.REMOTE_WRITE));
            assertEquals(WcStatus.SUCCESS, p.await(p.b.cq, 1).get(0).status());
            assertEquals(chosen, mw.rkey(), "the window carries the consumer's low byte");
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(mr.address()).rkey(chosen).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
            int otherUpper = chosen ^ 0x100;
            assertThrows(InvalidAttributeException.class, () -> p.b.qp.postSend(new SendWorkRequest().wrId(3)
                .opcode(WrOpcode.BIND_MW).bindMw(mw, otherUpper, mr, mr.address(), 4096, AccessFlags.REMOTE_WRITE)),
                "only the low 8 bits are the consumer's");
            mw.close();
            mr.close();
        }
    }

    private static void connectUc(QueuePair self, QueuePair peer, RdmaDevice peerDevice) {
        QpConnector.uc().accessFlags(AccessFlags.REMOTE_WRITE).connect(self, 0x10, RemoteQp.of(peer, 0x10, peerDevice.gids().get(0)));
    }

    private static List<WorkCompletion> await(SimulatedFabric fabric, CompletionQueue cq, int n) {
        List<WorkCompletion> out = new ArrayList<>();
        boolean ok = fabric.runUntil(() -> {
            WorkCompletion wc = new WorkCompletion();
            while (out.size() < n && cq.poll(wc)) {
                out.add(wc);
                wc = new WorkCompletion();
            }
            return out.size() >= n;
        }, 10_000_000_000L);
        assertTrue(ok, "only " + out.size() + " of " + n + " completions: " + out);
        return out;
    }
}
