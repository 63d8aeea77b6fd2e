package io.jroce.rnic.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimerFloorTest {
    @Test
    void theEarliestDeadlineNotedIsTheFloorUntilCleared() {
        TimerFloor floor = new TimerFloor();
        assertFalse(floor.due(0));
        assertFalse(floor.due(Long.MAX_VALUE), "nothing noted: never due");
        floor.note(500);
        floor.note(900); // later: changes nothing
        assertFalse(floor.due(499));
        assertTrue(floor.due(500));
        floor.note(200);
        assertTrue(floor.due(200));
        floor.clear();
        assertFalse(floor.due(1_000));
        floor.note(700);
        assertFalse(floor.due(699));
        assertTrue(floor.due(700));
    }

    @Test
    void deadlinesCompareAcrossTheWrapOfTheClock() {
        TimerFloor floor = new TimerFloor();
        floor.note(Long.MAX_VALUE - 10);
        floor.note(Long.MIN_VALUE + 10); // 21 ns later, after the wrap: not earlier
        assertFalse(floor.due(Long.MAX_VALUE - 11));
        assertTrue(floor.due(Long.MAX_VALUE - 10));
        assertTrue(floor.due(Long.MIN_VALUE + 5), "past the floor, across the wrap");
    }
}
