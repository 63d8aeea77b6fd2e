package io.jroce.junit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import io.jroce.stack.fault.Fate;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** The extension's pairs move data on both transports, faults included, and a failure carries the seed. */
@ExtendWith(DevicePairExtension.class)
class DevicePairExtensionTest {
    private static void sendAToB(DevicePair pair, byte[] message) throws InterruptedException {
        pair.b().qp().postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(pair.b().mr(), 0, 4096)));
        pair.a().mr().buffer().put(0, message);
        pair.a().qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(pair.a().mr(), 0, message.length)));
        WorkCompletion recv = pair.await(pair.b().cq(), 10, TimeUnit.SECONDS);
        assertEquals(WcStatus.SUCCESS, recv.status());
        assertEquals(WcOpcode.RECV, recv.opcode());
        assertEquals(message.length, recv.byteLen());
        byte[] landed = new byte[message.length];
        pair.b().mr().buffer().get(0, landed);
        assertArrayEquals(message, landed);
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a().cq(), 10, TimeUnit.SECONDS).status());
    }

    @Test
    void theDefaultPairIsOnAnIdealFabric(DevicePair pair, DevicePair same) throws Exception {
        assertSame(pair, same, "one pair per test");
        assertEquals(DeviceTransport.FABRIC, pair.transport());
        assertTrue(pair.fabric().isPresent());
        sendAToB(pair, "over the fabric".getBytes());
        assertEquals(0, pair.fabric().get().trace().count(Fate.DROPPED));
    }

    @Test
    @DevicePairOptions(seed = 7, loss = 0.2)
    void aLossyFabricStillDeliversAnRcWriteWhole(DevicePair pair) throws Exception {
        assertEquals(7, pair.seed());
        byte[] data = new byte[16 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        pair.a().mr().buffer().put(0, data);
        pair.a().qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(pair.a().mr(), 0, data.length))
            .remoteAddress(pair.b().mr().address()).rkey(pair.b().mr().rkey()));
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a().cq(), 60, TimeUnit.SECONDS).status());
        byte[] landed = new byte[data.length];
        pair.b().mr().buffer().get(0, landed);
        assertArrayEquals(data, landed);
        assertTrue(pair.fabric().get().trace().count(Fate.DROPPED) > 0, "seed 7 at 20 % loss loses packets");
    }

    @Test
    @DevicePairOptions(transport = DeviceTransport.UDP)
    void aUdpPairTalksOnLoopback(DevicePair pair) throws Exception {
        assertTrue(pair.fabric().isEmpty());
        assertEquals("127.0.0.2", pair.b().device().gids().get(0).toInetAddress().getHostAddress());
        sendAToB(pair, "over UDP".getBytes());
    }

    /** Run only through the engine test kit below (surefire leaves nested classes out). */
    @ExtendWith(DevicePairExtension.class)
    static class FailingExample {
        @Test
        @DevicePairOptions(seed = 12345, loss = 0.1)
        void fails(DevicePair pair) throws Exception {
            sendAToB(pair, new byte[] {1});
            throw new AssertionError("the test's own failure");
        }
    }

    @Test
    void aFailureCarriesTheSeedAndTheTrace() {
        List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(FailingExample.class))
            .execute().testEvents().failed().list();
        assertEquals(1, failed.size());
        Throwable thrown = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
            .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
        assertEquals("the test's own failure", thrown.getMessage());
        String report = Arrays.stream(thrown.getSuppressed()).map(Throwable::getMessage).findFirst().orElseThrow();
        assertTrue(report.startsWith("jroce device pair on FABRIC, seed 12345: replay with @DevicePairOptions(seed = 12345L"),
            report);
        assertTrue(report.contains("last packets of the fabric's trace:"), report);
        assertTrue(report.lines().count() > 3, "the trace has the SEND and its ACK at least: " + report);
    }
}
