/**
 * {@code jroce lesson}: short, deterministic scenarios on the simulated fabric, each run on virtual
 * time with fixed PSNs and QPNs, captured as pcap in memory and printed through explain's ladder
 * with one line of why per packet; and the generator of the learner's guide in {@code docs/learn}.
 *
 * <p>Internal, as all of the tools (docs/versioning.md).
 */
package io.jroce.tools.lesson;
