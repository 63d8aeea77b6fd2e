package io.jroce.tools.rdmaep;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.nio.ByteBuffer;

/**
 * What rdma_server and rdma_client share: their QP attributes, their two 16-byte messages
 * ({@code send_msg} and {@code recv_msg}, static buffers, so the SEND carries zeros) and the
 * choice of an inline SEND.
 */
final class EpMessages implements AutoCloseable {
    /** The size of each message. */
    static final int LENGTH = 16;

    final MemoryRegion recv;
    final MemoryRegion send;

    private EpMessages(MemoryRegion recv, MemoryRegion send) {
        this.recv = recv;
        this.send = send;
    }

    /**
     * The programs' {@code ibv_qp_init_attr}: one send and one receive of one entry each, 16 bytes
     * inline, every send signaled; the endpoint makes the CQs.
     */
    static QpInitAttributes qpInit() {
        return new QpInitAttributes().maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1).maxInlineData(LENGTH)
            .sqSigAll(true);
    }

    /**
     * IBV_SEND_INLINE when the device takes 16 bytes inline (the programs read the QP's capability),
     * else 0, for which they print that sge sends are used.
     */
    static int sendFlags(RdmaDevice device) {
        return device.queryDevice().maxInlineData() >= LENGTH ? SendFlags.INLINE : 0;
    }

    /**
     * rdma_reg_msgs of both messages. The send message is registered even for an inline SEND (the C
     * programs leave it unregistered then): a jroce SEND reads its bytes from registered memory.
     */
    static EpMessages register(RdmaEndpoint ep) {
        MemoryRegion recv = ep.regMsgs(ByteBuffer.allocateDirect(LENGTH));
        try {
            return new EpMessages(recv, ep.regMsgs(ByteBuffer.allocateDirect(LENGTH)));
        } catch (RuntimeException e) {
            recv.close();
            throw e;
        }
    }

    /** rdma_dereg_mr of both. */
    @Override
    public void close() {
        send.close();
        recv.close();
    }
}
