/**
 * {@code jroce explain}: reads a RoCEv2 capture (pcap or pcapng) into a stream of decoded
 * {@link io.jroce.tools.explain.Packet} records, groups them into connections, runs small
 * analysers over each connection (messages, retransmissions and their triggers, PSN gaps,
 * duplicates, RNR waits, READ and atomic pairing, ICRC, opcode sequence) and prints a ladder
 * diagram with the findings, a Mermaid sequence diagram, or one packet field by field.
 */
package io.jroce.tools.explain;
