package io.jroce.tests.verbs;

import java.util.ArrayList;
import java.util.List;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.SharedReceiveQueue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queue memory is charged to the device's memory budget: creating QPs, SRQs or CQs beyond it fails
 * with ResourceLimitException (once it was an OutOfMemoryError: 6,919 default QPs filled a 512 MB
 * heap, 16 QPs at their maximum capacities did), and destroying one gives its memory back.
 */
class MemoryBudgetTest {
    private static final long BUDGET = 4L << 20;

    private static RdmaDevice open(SimulatedFabric fabric, long budget) {
        return SoftRnic.builder().name("jrocemem").address("10.0.0.1").memoryBudget(budget).openOn(fabric);
    }

    private static QpInitAttributes defaultQp(CompletionQueue cq) {
        return new QpInitAttributes().type(QpType.RC).cq(cq); // 128 + 128 WRs of one SGE: about 68 KB
    }

    private static void assertRefusedForMemory(ResourceLimitException e) {
        String m = e.getMessage();
        assertTrue(m.contains("memory budget of " + BUDGET + " bytes"), m);
        assertTrue(m.contains("-Djroce.memoryBudget") && m.contains("memoryBudget(bytes)"), m);
    }

    @Test
    void queuePairsBeyondTheBudgetAreRefusedAndDestroyingOneMakesRoom() {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice device = open(fabric, BUDGET);
        ProtectionDomain pd = device.allocPd();
        CompletionQueue cq = device.createCq(16);
        List<QueuePair> qps = new ArrayList<>();
        ResourceLimitException refused = null;
        while (refused == null && qps.size() < 1000) {
            try {
                qps.add(pd.createQp(defaultQp(cq)));
            } catch (ResourceLimitException e) {
                refused = e;
            }
        }
        assertTrue(refused != null, "4 MB cannot hold 1000 default QPs");
        int fitted = qps.size();
        assertTrue(fitted >= 50 && fitted <= 65, "a default QP takes 64..80 KB of a 4 MB budget, " + fitted + " fitted");
        assertRefusedForMemory(refused);
        assertTrue(refused.getMessage().startsWith("cannot create a RC QP of max_send_wr=128"), refused.getMessage());

        qps.remove(qps.size() - 1).close();
        qps.add(pd.createQp(defaultQp(cq))); // the destroyed QP's memory is back
        assertRefusedForMemory(assertThrows(ResourceLimitException.class, () -> pd.createQp(defaultQp(cq))));

        DeviceAttributes limits = device.queryDevice();
        QpInitAttributes largest = defaultQp(cq).maxSendWr(limits.maxQpWr()).maxRecvWr(limits.maxQpWr())
            .maxSendSge(limits.maxSge()).maxRecvSge(limits.maxSge()).maxInlineData(256);
        qps.forEach(QueuePair::close);
        // Within every advertised limit, but about 31 MB: refused, with nothing allocated.
        assertRefusedForMemory(assertThrows(ResourceLimitException.class, () -> pd.createQp(largest)));
        assertEquals(fitted, createUntilRefused(pd, cq), "every QP's memory came back");
        cq.close();
        pd.close();
        device.close();
    }

    private static int createUntilRefused(ProtectionDomain pd, CompletionQueue cq) {
        List<QueuePair> qps = new ArrayList<>();
        try {
            while (true) {
                qps.add(pd.createQp(defaultQp(cq)));
            }
        } catch (ResourceLimitException e) {
            return qps.size();
        } finally {
            qps.forEach(QueuePair::close);
        }
    }

    @Test
    void completionQueuesAndSrqsShareTheBudget() {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice device = open(fabric, BUDGET);
        int maxCqe = device.queryDevice().maxCqe();
        List<CompletionQueue> cqs = new ArrayList<>();
        // A CQ of max_cqe entries is about 2 MB: one fits in 4 MB, a second does not.
        cqs.add(device.createCq(maxCqe));
        ResourceLimitException e = assertThrows(ResourceLimitException.class, () -> device.createCq(maxCqe));
        assertRefusedForMemory(e);
        assertTrue(e.getMessage().startsWith("cannot create a CQ of " + maxCqe + " entries"), e.getMessage());

        ProtectionDomain pd = device.allocPd();
        // An SRQ of 16384 WRs of 32 SGEs is about 13 MB.
        e = assertThrows(ResourceLimitException.class, () -> pd.createSrq(1 << 14, 32));
        assertRefusedForMemory(e);
        SharedReceiveQueue small = pd.createSrq(1024, 1);

        cqs.remove(0).close();
        CompletionQueue again = device.createCq(maxCqe); // room again once the first is destroyed
        again.close();
        small.close();
        pd.close();
        device.close();
    }

    @Test
    void theBudgetMustBePositive() {
        assertThrows(io.jroce.verbs.InvalidAttributeException.class, () -> SoftRnic.builder().memoryBudget(0));
        assertThrows(io.jroce.verbs.InvalidAttributeException.class, () -> SoftRnic.builder().memoryBudget(-1));
    }
}
