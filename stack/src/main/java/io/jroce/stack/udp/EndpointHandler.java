package io.jroce.stack.udp;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only handler in an endpoint's pipeline: the end of the line for every datagram (released
 * here) and for every exception Netty raises on the socket (counted here), so neither goes further.
 */
final class EndpointHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointHandler.class);

    private final LocalEndpoint local;
    private final DatagramReceiver receiver;
    private final Counters counters;
    private final Runnable afterReadBatch;

    EndpointHandler(LocalEndpoint local, DatagramReceiver receiver, Counters counters, Runnable afterReadBatch) {
        this.local = local;
        this.receiver = receiver;
        this.counters = counters;
        this.afterReadBatch = afterReadBatch;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof DatagramPacket datagram) {
                receiver.receive(local, datagram);
            }
        } catch (Throwable t) {
            rethrowIfFatal(t);
            receiver.internalError("receive failed on " + local + " (the packet handler threw?)", t);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Flushes what the RNIC sent in answer to the batch just read, so a forgotten flush costs nothing. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        try {
            afterReadBatch.run();
        } catch (Throwable t) {
            rethrowIfFatal(t);
            receiver.internalError("flush after a read batch failed on " + local, t);
        }
    }

    /**
     * Netty reports socket errors here: almost always a failed write (sent with the void promise:
     * unreachable network, message too long, closed socket), rarely a failed read.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.increment(Counter.DROP_TX_FAILED);
        if (local.sendBatch != null && local.sendBatch.gsoRefused(cause)) {
            LOG.warn("the kernel refused a UDP GSO message on {} ({}); sending one datagram per packet from now on",
                local, cause.getMessage());
        }
        LOG.debug("socket error on {}", local, cause);
    }

    private static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError e) {
            throw e;
        }
    }
}
