package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.udp.UdpTransport;
import io.jroce.testsupport.Tshark;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Captures made by real UDP transports exchanging packets on loopback, read back frame by frame. */
class UdpTransportCaptureTest {
    /** A guard against hangs only. */
    private static final long TIMEOUT_S = 20;
    private static final int[] PAYLOADS = {0, 1, 3, 256, 1024, 4096};

    @TempDir
    Path dir;

    private final List<UdpTransport> open = new ArrayList<>();

    @AfterEach
    void closeAll() {
        open.forEach(UdpTransport::close);
    }

    /** Two transports on {@code address} that exchanged SENDs and ACKs, then were closed. */
    private record Exchange(Side a, Side b, List<byte[]> packets) {
    }

    private Exchange exchange(String address) throws Exception {
        Side a = new Side(address, "a.pcap");
        Side b = new Side(address, "b.pcap");
        Random rnd = new Random(address.hashCode());
        List<byte[]> exchanged = new ArrayList<>();
        int psn = 0xFFFFFE; // wraps past 0xFFFFFF
        for (int payload : PAYLOADS) {
            byte[] send = TestPackets.sendOnly(rnd, 0x11, psn, payload);
            a.send(send, b);
            assertArrayEquals(send, b.take());
            byte[] ack = TestPackets.ack(0x12, psn, exchanged.size() / 2 + 1);
            b.send(ack, a);
            assertArrayEquals(ack, a.take());
            exchanged.add(send);
            exchanged.add(ack);
            psn = (psn + 1) & 0xFFFFFF;
        }
        a.transport.close();
        b.transport.close();
        return new Exchange(a, b, exchanged);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void bothSidesCaptureEveryPacketOnceWithItsIcrcVerifying(String address) throws Exception {
        Exchange x = exchange(address);
        for (Side side : new Side[] {x.a(), x.b()}) {
            List<PcapReader.Record> records = PcapWriterTest.read(side.pcap);
            assertEquals(x.packets().size(), records.size(), side.pcap.toString());
            for (int i = 0; i < records.size(); i++) {
                Frame f = Frame.parse(records.get(i));
                String where = side.pcap.getFileName() + " frame " + (i + 1);
                Side from = i % 2 == 0 ? x.a() : x.b();
                Side to = i % 2 == 0 ? x.b() : x.a();
                assertArrayEquals(x.packets().get(i), f.roce(), where);
                assertArrayEquals(from.address16, f.src16(), where);
                assertArrayEquals(to.address16, f.dst16(), where);
                assertEquals(from.port(), f.srcPort(), where);
                assertEquals(to.port(), f.dstPort(), where);
                assertEquals(f.expectedIcrc(), f.icrc(), where + ": ICRC");
                assertTrue(f.udpChecksumValid(), where + ": UDP checksum");
                if (f.ipv4()) {
                    assertTrue(f.ipv4HeaderChecksumValid(), where + ": IPv4 header checksum");
                    assertEquals(0, f.ipId(), where + ": jroce's kernel socket sends IP ID 0 with DF");
                    assertEquals(IcrcCalculator.IPV4_FLAGS_DF, f.flagsFragment(), where);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void tsharkDissectsEveryCapturedFrameAsRoceV2(String address) throws Exception {
        Tshark tshark = Tshark.require();
        Exchange x = exchange(address);
        tshark.decodingAsRoce(x.a().port(), x.b().port()).assertEveryFrameIsWellFormedRoce(x.a().pcap, x.packets().size());
    }

    @Test
    void aReceivedPacketIsCapturedWithTheIpIdItsIcrcWasComputedWith() throws Exception {
        Side b = new Side("127.0.0.1", "rx.pcap");
        Random rnd = new Random(5);
        int corruptedIcrc;
        try (DatagramSocket rxe = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            int srcPort = rxe.getLocalPort();
            byte[] corrupted = TestPackets.sendOnly(rnd, 0x11, 1, 64);
            corruptedIcrc = icrcV4(corrupted, srcPort, b.port(), 0x1111, IcrcCalculator.IPV4_FLAGS_DF);
            corrupted[BTH_PAYLOAD] ^= 0x55;
            corrupted[BTH_PAYLOAD + 9] ^= 0x11;
            assertEquals(Ipv4IdRecovery.NOT_FOUND, new Ipv4IdRecovery().recoverId(LOOPBACK, LOOPBACK, srcPort, b.port(),
                new UnsafeBuffer(corrupted), 0, corrupted.length, corruptedIcrc), "precondition: no ID explains it");
            byte[] withDf = TestPackets.sendOnly(rnd, 0x11, 2, 100);
            byte[] withoutDf = TestPackets.sendOnly(rnd, 0x11, 3, 1000);
            // As rxe sends them: a fresh IP ID per packet, which the ICRC covers.
            send(rxe, b, corrupted, corruptedIcrc);
            send(rxe, b, withDf, icrcV4(withDf, srcPort, b.port(), 0x5A5A, IcrcCalculator.IPV4_FLAGS_DF));
            send(rxe, b, withoutDf, icrcV4(withoutDf, srcPort, b.port(), 0x0102, 0));
            assertArrayEquals(withDf, b.take());
            assertArrayEquals(withoutDf, b.take());
        }
        assertEquals(1, b.transport.counters().get(Counter.DROP_BAD_ICRC));
        assertEquals(2, b.transport.ipv4IdRecoveries());
        b.transport.close();

        List<PcapReader.Record> records = PcapWriterTest.read(b.pcap);
        assertEquals(3, records.size());
        Frame bad = Frame.parse(records.get(0));
        assertEquals(0, bad.ipId(), "no ID explains a corrupted packet: captured with ID 0 and DF");
        assertEquals(IcrcCalculator.IPV4_FLAGS_DF, bad.flagsFragment());
        assertEquals(corruptedIcrc, bad.icrc(), "its ICRC as it arrived");
        assertNotEquals(bad.expectedIcrc(), bad.icrc());

        Frame df = Frame.parse(records.get(1));
        assertEquals(0x5A5A, df.ipId());
        assertEquals(IcrcCalculator.IPV4_FLAGS_DF, df.flagsFragment());
        assertEquals(df.expectedIcrc(), df.icrc());
        assertTrue(df.ipv4HeaderChecksumValid());

        Frame noDf = Frame.parse(records.get(2));
        assertEquals(0x0102, noDf.ipId());
        assertEquals(0, noDf.flagsFragment());
        assertEquals(noDf.expectedIcrc(), noDf.icrc());
    }

    private static final int LOOPBACK = 0x7F000001;
    private static final int BTH_PAYLOAD = 12;

    private static int icrcV4(byte[] roce, int srcPort, int dstPort, int ipId, int flags) {
        return new IcrcCalculator().computeIpv4(LOOPBACK, LOOPBACK, ipId, flags, srcPort, dstPort,
            new UnsafeBuffer(roce), 0, roce.length);
    }

    private static void send(DatagramSocket s, Side to, byte[] roce, int icrc) throws Exception {
        byte[] d = ByteBuffer.allocate(roce.length + 4).order(ByteOrder.LITTLE_ENDIAN).put(roce).putInt(icrc).array();
        s.send(new DatagramPacket(d, d.length, InetAddress.getByName("127.0.0.1"), to.port()));
    }

    static byte[] toBytes16(InetAddress address) {
        byte[] raw = address.getAddress();
        if (raw.length == 16) {
            return raw;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(raw, 0, mapped, 12, 4);
        return mapped;
    }

    /** A transport on {@code address} (kernel-chosen port) capturing to a file, collecting what it receives. */
    private final class Side {
        final UdpTransport transport;
        final Path pcap;
        final byte[] address16;
        final BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();

        Side(String address, String file) {
            pcap = dir.resolve(file);
            transport = UdpTransport.builder().localAddress(address).port(0).pcap(pcap).build();
            open.add(transport);
            address16 = toBytes16(transport.localAddresses().get(0).getAddress());
            transport.start((packet, offset, length, src, srcPort, dst) -> {
                byte[] copy = new byte[length];
                packet.getBytes(offset, copy);
                received.add(copy);
            });
        }

        int port() {
            return transport.port();
        }

        void send(byte[] packet, Side to) throws Exception {
            boolean sent = transport.eventLoop().submit(() -> {
                boolean ok = transport.send(new UnsafeBuffer(packet), 0, packet.length, address16, to.address16,
                    to.port());
                transport.flush();
                return ok;
            }).get(TIMEOUT_S, TimeUnit.SECONDS);
            assertTrue(sent);
        }

        byte[] take() throws InterruptedException {
            byte[] p = received.poll(TIMEOUT_S, TimeUnit.SECONDS);
            assertNotNull(p, "nothing received within " + TIMEOUT_S + " s");
            return p;
        }
    }
}
