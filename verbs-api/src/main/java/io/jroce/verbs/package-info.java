/**
 * The verbs API of jroce: devices, protection domains, memory regions, completion queues, queue
 * pairs, work requests and completions, modelled on libibverbs (ibv_*) and named as in the IBTA
 * specification, Vol. 1, chapter 11 ("Software Transport Interface").
 *
 * <p>This module holds interfaces and value types only; the simulated RNIC in {@code rnic-sim}
 * implements them. Every invalid call throws a subclass of {@link io.jroce.verbs.VerbsException}.
 */
package io.jroce.verbs;
