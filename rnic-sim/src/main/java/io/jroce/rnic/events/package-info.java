/**
 * What the RNIC's protocol engines do that a person debugging a connection wants to see, as it
 * happens: QP state changes, NAKs sent and received, retransmissions and their cause, RNR waits,
 * and every packet dropped with its reason ({@link io.jroce.rnic.events.ProtocolEvents}). By default
 * a device logs them through SLF4J under {@code io.jroce.rnic.protocol} at debug level
 * ({@link io.jroce.rnic.events.LoggingProtocolEvents}, drops rate-limited); an application may
 * give its own listener to {@code SoftRnic.Builder.protocolEvents}. The events come from the
 * protocol's rare paths only, never once per packet of a healthy flow.
 */
package io.jroce.rnic.events;
