package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.QpType;

/** The device's transmit budget alone: hand-out, waiting set, give-back. */
class TransmitBudgetTest {
    private final List<QpContext> woken = new ArrayList<>();
    private final TransmitBudget budget = new TransmitBudget(2, woken::add);
    private final QpContext a = qp(1);
    private final QpContext b = qp(2);
    private final QpContext c = qp(3);

    private static QpContext qp(int qpn) {
        return new QpContext(qpn, QpType.RC, null, new WorkQueueRing<>(1, () -> new SendWqe(1, 0)),
            new WorkQueueRing<>(1, () -> new RecvWqe(1)), null, null, null);
    }

    @Test
    void handsOutUpToItsLimitThenQueuesEachQpOnce() {
        assertTrue(budget.mayTransmit(a));
        budget.add(2);
        assertFalse(budget.mayTransmit(a));
        assertFalse(budget.mayTransmit(a));
        assertFalse(budget.mayTransmit(b));
        assertTrue(budget.isWaiting(a));
        assertTrue(budget.isWaiting(b));
        assertEquals(2, budget.inFlight());
        assertEquals(List.of(), woken);
    }

    @Test
    void wakesAtMostOneQpPerFreedPacketInTheOrderTheyAsked() {
        budget.add(2);
        budget.mayTransmit(a);
        budget.mayTransmit(b);
        budget.mayTransmit(c);
        budget.add(-1);
        assertEquals(List.of(a), woken);
        assertFalse(budget.isWaiting(a));
        budget.add(1); // a took its packet
        budget.add(-2);
        assertEquals(List.of(a, b, c), woken);
        assertEquals(0, budget.inFlight());
    }

    @Test
    void chargingMoreWakesNobody() {
        budget.add(2);
        budget.mayTransmit(a);
        budget.add(1);
        assertEquals(List.of(), woken);
        assertTrue(budget.isWaiting(a));
    }

    @Test
    void aRemovedQpIsNeverWoken() {
        budget.add(2);
        budget.mayTransmit(a);
        budget.mayTransmit(b);
        budget.remove(a);
        budget.add(-2);
        assertEquals(List.of(b), woken);
        assertFalse(budget.isWaiting(a));
    }
}
