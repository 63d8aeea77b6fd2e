/**
 * Classic pcap files: {@link io.jroce.stack.pcap.PcapReader} reads captures, and
 * {@link io.jroce.stack.pcap.RoceFrame} takes their frames apart as RoCEv2, whose ICRCs
 * {@link io.jroce.stack.pcap.IcrcCheck} verifies (tests, tools);
 * {@link io.jroce.stack.pcap.PcapWriter} writes what a transport sends and receives, in frames
 * that Wireshark decodes as RoCEv2 and whose ICRCs verify.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.stack.pcap;
