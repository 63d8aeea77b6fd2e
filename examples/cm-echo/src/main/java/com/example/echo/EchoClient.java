package com.example.echo;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An RDMA CM echo client: connects from {@code SOURCE} to the server, sends a message, prints the
 * reply. Run: {@code EchoClient SOURCE SERVER PORT MESSAGE [UDP_PORT]}.
 */
public final class EchoClient {
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: EchoClient SOURCE SERVER PORT MESSAGE [UDP_PORT]");
            System.exit(2);
        }
        int udpPort = args.length > 4 ? Integer.parseInt(args[4]) : 4791;
        try (RdmaDevice device = SoftRnic.builder().address(args[0]).udpPort(udpPort).open()) {
            System.out.println(echo(args[0], args[1], args[2], args[3]));
        }
    }

    /** One connection from {@code source} (a device must own it): the message out, the reply back. */
    public static String echo(String source, String server, String port, String message) throws Exception {
        QpInitAttributes qp = new QpInitAttributes().maxSendWr(2).maxRecvWr(2);
        RdmaAddrInfo hints = new RdmaAddrInfo().srcAddress(new InetSocketAddress(source, 0));
        try (RdmaEndpoint ep = RdmaCm.createEp(RdmaCm.getAddrInfo(server, port, hints), null, qp);
             MemoryRegion mr = ep.regMsgs(ByteBuffer.allocateDirect(2 * EchoServer.MAX_MESSAGE))) {
            WorkCompletion wc = new WorkCompletion();
            ep.postRecv(1, mr, EchoServer.MAX_MESSAGE, EchoServer.MAX_MESSAGE);
            ep.connect();
            byte[] out = message.getBytes(StandardCharsets.UTF_8);
            mr.buffer().put(0, out);
            ep.postSend(2, mr, 0, out.length, SendFlags.SIGNALED);
            EchoServer.check(ep.getSendComp(wc));
            EchoServer.check(ep.getRecvComp(wc));
            byte[] reply = new byte[wc.byteLen()];
            mr.buffer().get(EchoServer.MAX_MESSAGE, reply);
            ep.disconnect();
            return new String(reply, StandardCharsets.UTF_8);
        }
    }
}
