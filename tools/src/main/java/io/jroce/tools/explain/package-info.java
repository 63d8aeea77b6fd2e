/**
 * {@code jroce explain}: reads a RoCEv2 capture (pcap or pcapng) into a stream of decoded
 * {@link io.jroce.tools.explain.Packet} records, groups them into connections, runs small
 * analysers over each connection (messages, retransmissions and their triggers, PSN gaps,
 * duplicates, RNR waits, READ and atomic pairing, ICRC, opcode sequence) and prints a ladder
 * diagram with the findings, a Mermaid sequence diagram, or one packet field by field.
 *
 * <p>Internal, as all of the tools (docs/versioning.md): the command and its output are what it
 * promises, not these classes.
 */
package io.jroce.tools.explain;
