package com.example.echo;

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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An RDMA CM echo server: for each of {@code count} connections it receives one message by SEND
 * and sends it back in capitals. Run: {@code EchoServer ADDRESS PORT COUNT [UDP_PORT]}.
 */
public final class EchoServer {
    static final int MAX_MESSAGE = 256;

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: EchoServer ADDRESS PORT COUNT [UDP_PORT]");
            System.exit(2);
        }
        int udpPort = args.length > 3 ? Integer.parseInt(args[3]) : 4791;
        try (RdmaDevice device = SoftRnic.builder().address(args[0]).udpPort(udpPort).open()) {
            serve(args[0], args[1], Integer.parseInt(args[2]));
        }
    }

    /** Listens on {@code address}:{@code port} (a device must own the address) and serves {@code count} clients. */
    public static void serve(String address, String port, int count) throws Exception {
        QpInitAttributes qp = new QpInitAttributes().maxSendWr(2).maxRecvWr(2);
        RdmaAddrInfo passive = RdmaCm.getAddrInfo(address, port, new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE));
        try (RdmaEndpoint listener = RdmaCm.createEp(passive, null, qp)) {
            listener.listen(count);
            System.out.println("listening on " + address + ":" + port);
            System.out.flush();
            for (int i = 0; i < count; i++) {
                echoOnce(listener);
            }
        }
    }

    private static void echoOnce(RdmaEndpoint listener) {
        try (RdmaEndpoint conn = listener.getRequest();
             MemoryRegion mr = conn.regMsgs(ByteBuffer.allocateDirect(2 * MAX_MESSAGE))) {
            WorkCompletion wc = new WorkCompletion();
            conn.postRecv(1, mr, 0, MAX_MESSAGE); // before accept: the client may send at once
            conn.accept();
            check(conn.getRecvComp(wc));
            byte[] got = new byte[wc.byteLen()];
            mr.buffer().get(0, got);
            String message = new String(got, StandardCharsets.UTF_8);
            byte[] reply = message.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
            mr.buffer().put(MAX_MESSAGE, reply);
            conn.postSend(2, mr, MAX_MESSAGE, reply.length, SendFlags.SIGNALED);
            check(conn.getSendComp(wc));
            System.out.println("echoed " + message + " to " + conn.peerAddress());
            conn.disconnect();
        }
    }

    static void check(WorkCompletion wc) {
        if (wc.status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("work request failed: " + wc);
        }
    }
}
