package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;

/**
 * What the completion channel verbs refuse, and with which exception: arming or acknowledging on
 * a CQ without a channel, acknowledging more events than were taken, a channel of another device,
 * destroying a channel or a device that still has dependants, using a destroyed channel.
 */
class CompletionChannelValidationTest {
    private final SimulatedFabric fabric = new SimulatedFabric();
    private RdmaDevice device;
    private RdmaDevice other;

    @BeforeEach
    void open() {
        device = SoftRnic.builder().name("jroce0").address("10.0.0.1").openOn(fabric);
        other = SoftRnic.builder().name("jroce1").address("10.0.0.2").openOn(fabric);
    }

    @AfterEach
    void close() {
        device.close();
        other.close();
    }

    @Test
    void aCqWithoutAChannelCannotBeArmedNorAcknowledged() {
        try (CompletionQueue cq = device.createCq(4)) {
            assertNull(cq.channel());
            InvalidStateException e = assertThrows(InvalidStateException.class, () -> cq.requestNotification(false));
            assertTrue(e.getMessage().contains("no completion channel"), e.getMessage());
            assertThrows(InvalidStateException.class, () -> cq.ackEvents(0));
        }
    }

    @Test
    void createCqWithANullChannelIsACqWithoutOne() {
        try (CompletionQueue cq = device.createCq(4, null)) {
            assertNull(cq.channel());
        }
    }

    @Test
    void acknowledgingMoreEventsThanTakenOrANegativeCountIsRefused() {
        try (CompletionChannel ch = device.createCompletionChannel(); CompletionQueue cq = device.createCq(4, ch)) {
            assertSame(ch, cq.channel());
            cq.ackEvents(0);
            InvalidAttributeException e = assertThrows(InvalidAttributeException.class, () -> cq.ackEvents(1));
            assertEquals("cannot acknowledge 1 event(s): only 0 taken from the channel for this CQ are unacknowledged",
                e.getMessage());
            assertThrows(InvalidAttributeException.class, () -> cq.ackEvents(-1));
        }
    }

    @Test
    void aChannelOfAnotherDeviceIsRefused() {
        try (CompletionChannel foreign = other.createCompletionChannel()) {
            InvalidAttributeException e =
                assertThrows(InvalidAttributeException.class, () -> device.createCq(4, foreign));
            assertTrue(e.getMessage().contains("jroce0"), e.getMessage());
        }
    }

    @Test
    void aChannelInUseAndADeviceWithAChannelAreBusy() throws InterruptedException {
        CompletionChannel ch = device.createCompletionChannel();
        CompletionQueue cq = device.createCq(4, ch);
        ResourceBusyException busy = assertThrows(ResourceBusyException.class, ch::close);
        assertEquals("completion channel is still used by 1 completion queue(s); destroy them first",
            busy.getMessage());
        cq.close();
        ResourceBusyException dev = assertThrows(ResourceBusyException.class, device::close);
        assertTrue(dev.getMessage().contains("1 completion channel(s)"), dev.getMessage());
        assertNull(ch.getEvent(0, TimeUnit.SECONDS), "the channel still works after the refused close");
        ch.close();
        ch.close(); // idempotent
    }

    @Test
    void aDestroyedChannelCannotBeUsed() {
        CompletionChannel ch = device.createCompletionChannel();
        ch.close();
        assertThrows(ResourceClosedException.class, () -> device.createCq(4, ch));
        assertThrows(ResourceClosedException.class, () -> ch.getEvent(0, TimeUnit.SECONDS));
    }

    @Test
    void aDestroyedCqCannotBeArmed() {
        try (CompletionChannel ch = device.createCompletionChannel()) {
            CompletionQueue cq = device.createCq(4, ch);
            cq.close();
            assertThrows(ResourceClosedException.class, () -> cq.requestNotification(true));
            assertThrows(ResourceClosedException.class, () -> cq.ackEvents(0));
        }
    }

    @Test
    void getEventWithoutATimeUnitIsRefused() {
        try (CompletionChannel ch = device.createCompletionChannel()) {
            assertThrows(InvalidAttributeException.class, () -> ch.getEvent(1, null));
        }
    }
}
