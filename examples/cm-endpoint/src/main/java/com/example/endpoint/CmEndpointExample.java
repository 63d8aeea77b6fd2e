package com.example.endpoint;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Two RNICs on loopback connected with librdmacm's convenience layer: a SEND, an RDMA WRITE, an RDMA READ. */
public final class CmEndpointExample {
    /**
     * Runs both sides and prints what moved.
     *
     * @param args the RoCE UDP port, 4791 when none is given
     * @throws Exception a step failed
     */
    public static void main(String[] args) throws Exception {
        run(args.length > 0 ? Integer.parseInt(args[0]) : 4791).forEach(System.out::println);
    }

    /**
     * Both sides, on 127.0.0.1 and 127.0.0.2 with RoCE UDP port {@code udpPort}.
     *
     * @param udpPort the RoCE UDP port of both devices
     * @return what moved, one line per operation
     * @throws Exception a step failed
     */
    public static List<String> run(int udpPort) throws Exception {
        List<String> moved = new CopyOnWriteArrayList<>();
        QpInitAttributes qp = new QpInitAttributes().maxSendWr(4).maxRecvWr(4);
        try (RdmaDevice serverDev = SoftRnic.builder().address("127.0.0.1").udpPort(udpPort).open();
             RdmaDevice clientDev = SoftRnic.builder().address("127.0.0.2").udpPort(udpPort).open();
             RdmaEndpoint listener = RdmaCm.createEp(RdmaCm.getAddrInfo("127.0.0.1", "7471",
                 new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE)), null, qp)) {
            listener.listen(1);
            CompletableFuture<Void> server = CompletableFuture.runAsync(() -> serve(listener, moved));
            RdmaAddrInfo hints = new RdmaAddrInfo().srcAddress(new InetSocketAddress("127.0.0.2", 0));
            String read;
            try (RdmaEndpoint ep = RdmaCm.createEp(RdmaCm.getAddrInfo("127.0.0.1", "7471", hints), null, qp);
                 MemoryRegion mr = ep.regMsgs(ByteBuffer.allocateDirect(64))) {
                WorkCompletion wc = new WorkCompletion();
                ByteBuffer b = mr.buffer();
                ep.postRecv(1, mr, 0, 24);
                ep.connect();
                ok(ep.getRecvComp(wc)); // the server's two buffers: address and rkey of each
                b.put(32, "written by RDMA WRITE".getBytes(StandardCharsets.US_ASCII));
                ep.postWrite(2, mr, 32, 21, SendFlags.SIGNALED, b.getLong(0), b.getInt(8));
                ok(ep.getSendComp(wc));
                ep.postRead(3, mr, 32, 17, SendFlags.SIGNALED, b.getLong(12), b.getInt(20));
                ok(ep.getSendComp(wc));
                read = text(b, 32, 17);
                b.put(32, "sent by SEND".getBytes(StandardCharsets.US_ASCII));
                ep.postSend(4, mr, 32, 12, SendFlags.SIGNALED);
                ok(ep.getSendComp(wc));
                ep.disconnect();
            }
            server.get(60, TimeUnit.SECONDS);
            moved.add("RDMA READ:  " + read);
        }
        return moved;
    }

    /** The passive side: one connection; its two buffers advertised by a SEND; the client's SEND awaited. */
    private static void serve(RdmaEndpoint listener, List<String> moved) {
        try (RdmaEndpoint conn = listener.getRequest();
             MemoryRegion msgs = conn.regMsgs(ByteBuffer.allocateDirect(64));
             MemoryRegion target = conn.regWrite(ByteBuffer.allocateDirect(64));
             MemoryRegion source = conn.regRead(ByteBuffer.allocateDirect(64)
                 .put(0, "read by RDMA READ".getBytes(StandardCharsets.US_ASCII)))) {
            WorkCompletion wc = new WorkCompletion();
            conn.postRecv(1, msgs, 32, 32);
            conn.accept();
            msgs.buffer().putLong(0, target.address()).putInt(8, target.rkey())
                .putLong(12, source.address()).putInt(20, source.rkey());
            conn.postSend(2, msgs, 0, 24, SendFlags.SIGNALED);
            ok(conn.getSendComp(wc));
            ok(conn.getRecvComp(wc)); // the client's SEND, after its WRITE: both have landed
            moved.add("SEND:       " + text(msgs.buffer(), 32, wc.byteLen()));
            moved.add("RDMA WRITE: " + text(target.buffer(), 0, 21));
            conn.disconnect();
        }
    }

    private static WorkCompletion ok(WorkCompletion wc) {
        if (wc.status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("work request failed: " + wc);
        }
        return wc;
    }

    private static String text(ByteBuffer b, int offset, int length) {
        byte[] bytes = new byte[length];
        b.get(offset, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
