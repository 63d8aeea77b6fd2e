/**
 * Capture files: {@link io.jroce.stack.pcap.PcapReader} reads classic pcap and pcapng, and
 * {@link io.jroce.stack.pcap.RoceFrame} takes their frames apart as RoCEv2 (Ethernet, Linux cooked
 * or raw IP link layers), {@link io.jroce.stack.pcap.GsoSegments} cuts a captured UDP GSO
 * super-datagram into its packets, and {@link io.jroce.stack.pcap.IcrcCheck} verifies their ICRCs
 * (tests, tools); {@link io.jroce.stack.pcap.PcapWriter} writes what a transport sends and
 * receives, in frames that Wireshark decodes as RoCEv2 and whose ICRCs verify.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.stack.pcap;
