package io.jroce.rnic.core;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.stack.stats.Counters;

/**
 * The device-wide services every protocol engine uses, built once per device and handed to each
 * engine's constructor (as Aeron's MediaDriver.Context is to its Sender and Receiver): counters,
 * the key table, the packet sender, the transmit budget, the scheduler, the response pacer and the
 * listener of protocol events. The engines reach
 * nothing else of the device; a test builds one with a recording transport and its own scheduler.
 */
final class RnicContext {
    final Counters counters;
    final KeyTable keys;
    final PacketSender sender;
    final TransmitBudget budget;
    final QpScheduler scheduler;
    final ResponsePacer pacer;
    /** Who hears of state changes, NAKs, retransmissions and RNR waits (never per packet of a healthy flow). */
    final ProtocolEvents events;
    /** When the next timer tick must visit the QPs. */
    final TimerFloor timerFloor = new TimerFloor();

    RnicContext(Counters counters, KeyTable keys, PacketSender sender, TransmitBudget budget, QpScheduler scheduler,
                ResponsePacer pacer, ProtocolEvents events) {
        this.counters = counters;
        this.keys = keys;
        this.sender = sender;
        this.budget = budget;
        this.scheduler = scheduler;
        this.pacer = pacer;
        this.events = events;
    }
}
