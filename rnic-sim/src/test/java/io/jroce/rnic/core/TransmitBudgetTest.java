package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.QpType;

/** The device's transmit budget alone: hand-out, waiting set, give-back. */
class TransmitBudgetTest {
    private final List<QpContext> woken = new ArrayList<>();
    private final TransmitBudget budget = new TransmitBudget(2, 1, woken::add);
    private final QpContext a = qp(1);
    private final QpContext b = qp(2);
    private final QpContext c = qp(3);

    /** A budget of {@code limit} packets waking one QP per {@code quantum}, its wakes in {@link #woken}. */
    private TransmitBudget budget(int limit, int quantum) {
        return new TransmitBudget(limit, quantum, woken::add);
    }

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
        budget.turnTaken(a);
        budget.add(-2);
        assertEquals(List.of(a, b, c), woken);
        assertEquals(0, budget.inFlight());
    }

    /**
     * With a quantum, packets given back wake one QP per quantum free, rounded up, counting the QPs
     * woken whose turn is still to come: 256 QPs with full queues otherwise take turns of one packet
     * each, a whole turn of the QP per packet sent.
     */
    @Test
    void wakesOneQpPerQuantumOfFreedPacketsRoundedUp() {
        TransmitBudget sixteen = budget(64, 16);
        List<QpContext> qps = List.of(qp(11), qp(12), qp(13), qp(14), qp(15));
        sixteen.add(64);
        qps.forEach(sixteen::mayTransmit);
        sixteen.add(-27); // 27 free: two quanta, the second partial
        assertEquals(qps.subList(0, 2), woken);
        sixteen.add(27); // the first took them all
        sixteen.turnTaken(qps.get(0));
        sixteen.turnTaken(qps.get(1)); // the second found nothing free: queued again, nobody else woken
        assertEquals(qps.subList(0, 2), woken);
        sixteen.add(-16); // exactly one quantum
        assertEquals(qps.subList(0, 3), woken);
        sixteen.add(-1); // 17 free, one woken QP counted as taking 16: one more
        assertEquals(qps.subList(0, 4), woken);
        sixteen.add(-16); // 33 free, two woken: one more
        assertEquals(qps.subList(0, 5), woken);
        assertFalse(sixteen.isWaiting(qps.get(4)));
    }

    @Test
    void aQuantumLargerThanTheLimitWakesOneQpPerLimit() {
        TransmitBudget small = budget(2, 16);
        small.add(2);
        small.mayTransmit(a);
        small.mayTransmit(b);
        small.add(-2);
        assertEquals(List.of(a), woken);
    }

    @Test
    void refusesALimitOrQuantumBelowOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TransmitBudget(0, 1, woken::add));
        assertTrue(e.getMessage().contains("limit 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TransmitBudget(1, 0, woken::add));
    }

    @Test
    void chargingMoreWakesNobody() {
        budget.add(2);
        budget.mayTransmit(a);
        budget.add(1);
        assertEquals(List.of(), woken);
        assertTrue(budget.isWaiting(a));
    }

    /**
     * A woken QP whose turn sends nothing (it went to ERR, is not in RTS, its work failed) hands its
     * wake on when the turn ends: otherwise, with nothing in flight, the QPs behind it wait forever.
     */
    @Test
    void aWokenQpThatTakesNothingHandsItsWakeOn() {
        TransmitBudget sixteen = budget(16, 16);
        sixteen.add(16);
        sixteen.mayTransmit(a);
        sixteen.mayTransmit(b);
        sixteen.add(-16); // one quantum free: a alone
        assertEquals(List.of(a), woken);
        sixteen.turnTaken(b); // a turn the budget did not ask for changes nothing
        assertEquals(List.of(a), woken);
        sixteen.turnTaken(a); // a sent nothing
        assertEquals(List.of(a, b), woken);
        sixteen.turnTaken(a); // once only
        assertEquals(List.of(a, b), woken);
    }

    /** A QP flushed, reset or destroyed after it was woken and before its turn hands its wake on. */
    @Test
    void removingAWokenQpHandsItsWakeOn() {
        TransmitBudget sixteen = budget(16, 16);
        sixteen.add(16);
        sixteen.mayTransmit(a);
        sixteen.mayTransmit(b);
        sixteen.mayTransmit(c);
        sixteen.add(-16);
        assertEquals(List.of(a), woken);
        sixteen.remove(b); // waiting: leaves the queue, wakes nobody
        assertEquals(List.of(a), woken);
        sixteen.remove(a); // woken: its wake goes to c
        assertEquals(List.of(a, c), woken);
        assertFalse(sixteen.isWaiting(b));
        sixteen.turnTaken(a); // a's turn, if it still comes, counts for nothing
        sixteen.add(16);
        sixteen.turnTaken(c);
        sixteen.mayTransmit(a);
        sixteen.add(-1);
        assertEquals(List.of(a, c, a), woken, "the count of woken QPs came back to zero");
    }

    /**
     * A woken QP can send (an ACK's turn) and be refused again before the turn it was woken for: it
     * waits again and is no longer counted as woken, else a second wake counts it twice, its one
     * turn takes off one, and every such leak leaves a quantum of free packets that wakes nobody.
     */
    @Test
    void aWokenQpRefusedAgainBeforeItsTurnIsCountedOnce() {
        TransmitBudget sixteen = budget(32, 16);
        sixteen.add(32);
        sixteen.mayTransmit(a);
        sixteen.add(-16); // a woken
        sixteen.add(16); // a sends them in an ACK's turn
        assertFalse(sixteen.mayTransmit(a)); // and is refused: it waits again
        sixteen.add(-32); // 32 free: a woken again (a quantum), nobody else waits
        sixteen.turnTaken(a); // a's one turn: it takes them all
        sixteen.add(32);
        assertEquals(List.of(a, a), woken);
        sixteen.mayTransmit(b);
        sixteen.add(-16); // a quantum free and no QP's turn pending: b
        assertEquals(List.of(a, a, b), woken, "a woken QP counted twice would leave b waiting");
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
