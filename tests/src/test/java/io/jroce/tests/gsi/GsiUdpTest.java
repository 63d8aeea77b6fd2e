package io.jroce.tests.gsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.core.Gsi;
import io.jroce.rnic.core.MadHandler;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.tests.support.Node;
import io.jroce.testsupport.Tshark;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;

/** The GSI over real UDP sockets on 127.0.0.1: what goes to a device's QP1 reaches its MAD handler. */
class GsiUdpTest {
    private static final String ADDRESS = "127.0.0.1";
    private static final byte[] LOOPBACK_GID = Gid.parse(ADDRESS).toBytes();
    private static final long WAIT_S = 30;

    /** One MAD as a handler saw it, copied. */
    private record Received(byte[] mad, byte[] peerGid, int peerPort, int sourceQp) {
    }

    private static MadHandler into(BlockingQueue<Received> queue) {
        return (mad, peerGid, peerPort, sourceQp, pkeyIndex, localGid, nowNs) -> {
            byte[] copy = new byte[Gsi.MAD_LENGTH];
            mad.getBytes(0, copy);
            queue.add(new Received(copy, peerGid.clone(), peerPort, sourceQp));
        };
    }

    /** A CM ConnectRequest header (base version 1, class 0x07, class version 2, method Send, attribute 0x0010), zero body. */
    private static byte[] cmMad(int transactionId) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[Gsi.MAD_LENGTH]);
        b.putByte(0, (byte) 1);
        b.putByte(1, (byte) 0x07);
        b.putByte(2, (byte) 2);
        b.putByte(3, (byte) 0x03);
        b.putInt(12, transactionId, java.nio.ByteOrder.BIG_ENDIAN); // low half of the TransactionID (bytes 8..15)
        b.putShort(16, (short) 0x0010, java.nio.ByteOrder.BIG_ENDIAN);
        return b.byteArray();
    }

    private static void send(SoftDevice from, byte[] mad, int peerPort) {
        from.gsi().execute(() -> from.gsi().send(new UnsafeBuffer(mad), 0, LOOPBACK_GID, LOOPBACK_GID, peerPort));
    }

    @Test
    void twoDevicesExchangeAMadBetweenTheirGsis() throws Exception {
        try (Node a = Node.open("gsi-a", ADDRESS, Mtu.MTU_1024); Node b = Node.open("gsi-b", ADDRESS, Mtu.MTU_1024)) {
            BlockingQueue<Received> atB = new LinkedBlockingQueue<>();
            SoftDevice devB = (SoftDevice) b.device();
            devB.gsi().handler(into(atB));
            byte[] mad = cmMad(0x1234);
            send((SoftDevice) a.device(), mad, b.port());
            Received r = atB.poll(WAIT_S, TimeUnit.SECONDS);
            assertNotNull(r, () -> "no MAD at B: " + a.describeCounters() + " / " + b.describeCounters());
            assertArrayEquals(mad, r.mad());
            assertArrayEquals(LOOPBACK_GID, r.peerGid());
            assertEquals(a.port(), r.peerPort(), "A's socket: where an answer goes");
            assertEquals(1, r.sourceQp());
            assertEquals(1L, a.counter("sent_mads"));
            assertEquals(1L, b.counter("rcvd_mads"));
        }
    }

    @Test
    void aDatagramFromAPlainSocketReachesTheHandler() throws Exception {
        try (Node b = Node.open("gsi-b", ADDRESS, Mtu.MTU_1024);
             DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(ADDRESS), 0))) {
            BlockingQueue<Received> atB = new LinkedBlockingQueue<>();
            ((SoftDevice) b.device()).gsi().handler(into(atB));
            byte[] mad = cmMad(0x5678);
            UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
            RocePacket p = new RocePacket();
            int length = p.build(out, 0, Opcode.UD_SEND_ONLY, Gsi.MAD_LENGTH);
            p.bth().partitionKey(0xFFFF).destQp(Gsi.QPN).psn(42);
            p.deth().qKey(Gsi.Q_KEY).sourceQp(1);
            out.putBytes(p.payloadOffset(), mad);
            int loopback = 0x7F000001;
            int crc = new IcrcCalculator().computeIpv4(loopback, loopback, 0, IcrcCalculator.IPV4_FLAGS_DF,
                socket.getLocalPort(), b.port(), out, 0, length);
            IcrcCalculator.writeIcrc(out, length, crc);
            socket.send(new DatagramPacket(out.byteArray(), length + IcrcCalculator.ICRC_LENGTH,
                new InetSocketAddress(InetAddress.getByName(ADDRESS), b.port())));
            Received r = atB.poll(WAIT_S, TimeUnit.SECONDS);
            assertNotNull(r, b::describeCounters);
            assertArrayEquals(mad, r.mad());
            assertEquals(socket.getLocalPort(), r.peerPort(), "any source port: never a filter");
            assertEquals(1, r.sourceQp());
        }
    }

    @Test
    void tsharkDissectsACapturedMadAsACmMad(@TempDir Path dir) throws Exception {
        Tshark tshark = Tshark.require();
        Path pcap = dir.resolve("gsi.pcap");
        try (Node b = Node.open("gsi-b", ADDRESS, Mtu.MTU_1024)) {
            BlockingQueue<Received> atB = new LinkedBlockingQueue<>();
            ((SoftDevice) b.device()).gsi().handler(into(atB));
            int port = Node.freeUdpPort(ADDRESS);
            SoftDevice a = (SoftDevice) SoftRnic.builder().name("gsi-a").address(ADDRESS).udpPort(port).pcap(pcap).open();
            try {
                send(a, cmMad(0x9ABC), b.port());
                assertNotNull(atB.poll(WAIT_S, TimeUnit.SECONDS), b::describeCounters);
            } finally {
                a.close();
            }
            assertTrue(Files.size(pcap) > 0);
            Tshark roce = tshark.decodingAsRoce(port, b.port());
            roce.assertEveryFrameIsWellFormedRoce(pcap, 1);
            List<String> fields = roce.fields(pcap, null, "infiniband.bth.opcode", "infiniband.bth.destqp",
                "infiniband.deth.q_key", "infiniband.deth.srcqp", "infiniband.mad.baseversion",
                "infiniband.mad.mgmtclass", "infiniband.mad.classversion", "infiniband.mad.attributeid");
            // tshark prints the Q_Key 64 bits wide and the source QP 32 bits wide.
            assertEquals(List.of("100\t0x000001\t0x0000000080010000\t0x00000001\t0x01\t0x07\t0x02\t0x0010"), fields);
        }
    }
}
