package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.CmEvents;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectionManager;
import io.jroce.rnic.core.Gsi;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.verbs.Gid;

/**
 * The CM answers to the peer's RoCE port, not to the port the MAD came from (rxe sends its MADs from
 * 0xC000 + a hash): a REQ sent from port Q to a device on port P is rejected (no listener) towards
 * port P of the sender's address, where a plain socket takes it.
 */
class CmReplyPortUdpTest {
    /** BTH (12) + DETH (8), then the MAD; MAD header attribute ID at 16, REJ reason at 24 + 10. */
    private static final int MAD = 20;

    private static int freePort(String address) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }

    @Test
    void aRejGoesToThePeersRocePortNotToTheReqsSourcePort() throws Exception {
        int p = freePort("127.0.0.1");
        int q = freePort("127.0.0.2");
        try (DatagramSocket rocePortOfTheSender = new DatagramSocket(new InetSocketAddress("127.0.0.2", p));
             SoftDevice server = (SoftDevice) SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(p).open();
             SoftDevice sender = (SoftDevice) SoftRnic.builder().name("snd").address("127.0.0.2").udpPort(q).open()) {
            rocePortOfTheSender.setSoTimeout(30_000);
            // The sender's own manager sends to port p (its peer's RoCE port) from its socket on q.
            ConnectionManager cm = new ConnectionManager(sender.gsi(), new Random(5), p);
            byte[] header = new byte[36];
            header[1] = 0x40;
            ConnectParams req = new ConnectParams(ConnectionManager.tcpServiceId(9999),
                Gid.parse("127.0.0.2").toBytes(), Gid.parse("127.0.0.1").toBytes(), 0x11, 0x123, 1, 1, 7, 7, 3, header);
            sender.gsi().execute(() -> cm.connect(req, new CmEvents() { }));

            DatagramPacket got = new DatagramPacket(new byte[2048], 2048);
            rocePortOfTheSender.receive(got);
            ByteBuffer b = ByteBuffer.wrap(got.getData(), 0, got.getLength());
            assertEquals(p, got.getPort(), "sent from the server's socket");
            assertEquals(MAD + Gsi.MAD_LENGTH + 4, got.getLength(), "a MAD and the ICRC");
            assertEquals(0x0012, b.getShort(MAD + 16) & 0xFFFF, "a REJ");
            assertEquals(8, b.getShort(MAD + 24 + 10) & 0xFFFF, "invalid service ID");
        }
    }
}
