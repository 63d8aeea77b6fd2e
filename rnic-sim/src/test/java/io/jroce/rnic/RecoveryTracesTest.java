package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;

import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.wire.Opcode;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The recovery cases of docs/rc-reliability.md, each run on the simulated fabric: the test checks
 * the recovery and writes the packet sequence to target/recovery-traces/NAME.txt, which is what the
 * page shows (regenerate it with {@code mvn -pl rnic-sim test -Dtest=RecoveryTracesTest}).
 */
class RecoveryTracesTest {
    private static final int PSN = 0x100;

    private static void run(String name, BiConsumer<FabricPair, SimulatedFabric> body) throws IOException {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(1).build();
        try (FabricPair p = new FabricPair(fabric, Mtu.MTU_1024, 1 << 16, 7, 7)) {
            body.accept(p, fabric);
            Path dir = Path.of(System.getProperty("user.dir"), "target", "recovery-traces");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".txt"), fabric.trace().dump(Integer.MAX_VALUE));
        }
    }

    private static SendWorkRequest op(FabricPair p, long id, WrOpcode opcode, int len) {
        return new SendWorkRequest().wrId(id).opcode(opcode).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey()).sgList(ScatterGatherEntry.of(p.a.mr, 0, len));
    }

    private static void succeeded(List<WorkCompletion> wcs) {
        for (WorkCompletion wc : wcs) {
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        }
    }

    @Test
    void lostRequestPacketIsNakedAndResent() throws IOException {
        run("lost-request", (p, f) -> {
            f.faults().add(FaultRule.drop(PacketMatch.psn(PSN + 1).and(PacketMatch.requests())).once());
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(p.b.mr, 0, 4096)));
            p.a.qp.postSend(op(p, 1, WrOpcode.SEND, 3000)); // FIRST 0x100, MIDDLE 0x101 (lost), LAST 0x102
            succeeded(p.await(p.a.cq, 1));
            assertEquals(1L, p.a.device.counters().get("rcvd_seq_err"), "one PSN sequence error NAK");
        });
    }

    @Test
    void lostAckIsRecoveredByTheTimer() throws IOException {
        run("lost-ack", (p, f) -> {
            f.faults().add(FaultRule.drop(PacketMatch.acks()).once());
            p.a.qp.postSend(op(p, 1, WrOpcode.RDMA_WRITE, 100));
            succeeded(p.await(p.a.cq, 1));
            assertEquals(1L, p.b.device.counters().get("duplicate_request"), "the resent WRITE is not executed twice");
        });
    }

    @Test
    void receiverNotReadyIsRetriedAfterTheRnrTimer() throws IOException {
        run("rnr", (p, f) -> {
            p.a.qp.postSend(op(p, 1, WrOpcode.SEND, 100));
            f.runFor(1_000_000); // min_rnr_timer 12 = 0.64 ms
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(p.b.mr, 0, 4096)));
            succeeded(p.await(p.a.cq, 1));
            assertTrue(p.a.device.counters().get("rcvd_rnr_err") >= 1);
        });
    }

    @Test
    void lostReadResponseIsRequestedAgainFromTheGap() throws IOException {
        run("lost-read-response", (p, f) -> {
            f.faults().add(FaultRule.drop(PacketMatch.opcode(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE)).once());
            p.a.qp.postSend(op(p, 1, WrOpcode.RDMA_READ, 4000)); // responses 0x100..0x103
            succeeded(p.await(p.a.cq, 1));
        });
    }

    @Test
    void lostAtomicAckIsAnsweredFromTheReplayRecord() throws IOException {
        run("lost-atomic-ack", (p, f) -> {
            f.faults().add(FaultRule.drop(PacketMatch.opcode(Opcode.RC_ATOMIC_ACKNOWLEDGE)).once());
            p.a.qp.postSend(op(p, 1, WrOpcode.ATOMIC_FETCH_AND_ADD, 8).compareAdd(1));
            succeeded(p.await(p.a.cq, 1));
            assertEquals(1L, p.b.mr.buffer().order(java.nio.ByteOrder.nativeOrder()).getLong(0), "added once");
        });
    }
}
