/**
 * RoCEv2 over real UDP sockets: {@link io.jroce.stack.udp.UdpTransport}, one socket per local IP
 * address on one Netty event loop that the RNIC also runs on. It owns what Java hides or gets wrong
 * for rxe interop: the socket options that make the kernel's IP headers predictable, the ICRC on
 * send, and its verification (with IPv4 ID recovery) on receive.
 */
package io.jroce.stack.udp;
