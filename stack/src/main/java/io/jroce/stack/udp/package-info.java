/**
 * RoCEv2 over real UDP sockets: {@link io.jroce.stack.udp.UdpTransport}, one socket per local IP
 * address on one Netty event loop that the RNIC also runs on. It owns what Java hides or gets wrong
 * for rxe interop: the socket options that make the kernel's IP headers predictable, the ICRC on
 * send, and its verification (with IPv4 ID recovery) on receive. Sending batches datagrams into
 * pooled buffers and hands same-size runs to the kernel as UDP GSO messages ({@code SendBatch});
 * receiving may take coalesced runs through UDP GRO; neither allocates per packet in jroce's code.
 */
package io.jroce.stack.udp;
