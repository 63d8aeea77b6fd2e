/**
 * RoCEv2 over real UDP sockets: {@link io.jroce.stack.udp.UdpTransport}, one socket per local IP
 * address on one Netty event loop that the RNIC also runs on. It owns what Java hides or gets wrong
 * for rxe interop: the socket options that make the kernel's IP headers predictable, the ICRC on
 * send, and its verification (with IPv4 ID recovery) on receive. Sending batches datagrams into
 * pooled buffers and hands same-size runs to the kernel as UDP GSO messages ({@code SendBatch});
 * receiving may take coalesced runs through UDP GRO; neither allocates per packet in jroce's code.
 * {@link io.jroce.stack.udp.DirectUdpTransport} is the same on the wire without a thread of its own,
 * for the invoker progress mode: the caller's thread reads and sends through Netty's native sockets
 * ({@code EpollInternals} reaches the batch calls that allocate nothing), a fallback thread awaits
 * readiness.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.stack.udp;
