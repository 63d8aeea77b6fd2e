package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.udp.DirectUdpTransport;
import io.netty.channel.epoll.Epoll;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Captures made by direct transports exchanging packets on loopback, read back frame by frame, as
 * {@link UdpTransportCaptureTest} reads those of the Netty transport.
 */
class DirectUdpTransportCaptureTest {
    /** A guard against hangs only. */
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final int[] PAYLOADS = {0, 1, 3, 256, 1024, 4096};

    @TempDir
    Path dir;

    private final List<DirectUdpTransport> open = new ArrayList<>();

    @BeforeAll
    static void epoll() {
        assumeTrue(Epoll.isAvailable(), () -> "native epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @AfterEach
    void closeAll() {
        open.forEach(DirectUdpTransport::close);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void bothSidesCaptureEveryPacketOnceWithItsIcrcVerifying(String address) throws Exception {
        Side a = new Side(address, "a.pcap");
        Side b = new Side(address, "b.pcap");
        Random rnd = new Random(address.hashCode());
        List<byte[]> exchanged = new ArrayList<>();
        int psn = 0xFFFFFE;
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
        for (Side side : new Side[] {a, b}) {
            List<PcapReader.Record> records = PcapWriterTest.read(side.pcap);
            assertEquals(exchanged.size(), records.size(), side.pcap.toString());
            for (int i = 0; i < records.size(); i++) {
                Frame f = Frame.parse(records.get(i));
                String where = side.pcap.getFileName() + " frame " + (i + 1);
                Side from = i % 2 == 0 ? a : b;
                Side to = i % 2 == 0 ? b : a;
                assertArrayEquals(exchanged.get(i), f.roce(), where);
                assertArrayEquals(from.address16, f.src16(), where);
                assertArrayEquals(to.address16, f.dst16(), where);
                assertEquals(from.port(), f.srcPort(), where);
                assertEquals(to.port(), f.dstPort(), where);
                assertEquals(f.expectedIcrc(), f.icrc(), where + ": ICRC");
                assertTrue(f.udpChecksumValid(), where + ": UDP checksum");
                if (f.ipv4()) {
                    assertTrue(f.ipv4HeaderChecksumValid(), where + ": IPv4 header checksum");
                    assertEquals(0, f.ipId(), where + ": a lone datagram leaves with IP ID 0 and DF");
                    assertEquals(IcrcCalculator.IPV4_FLAGS_DF, f.flagsFragment(), where);
                }
            }
        }
    }

    /** The segments of a GSO message are captured with the IPv4 IDs the kernel gives them: 0, 1, 2, ... */
    @Test
    void aGsoRunIsCapturedWithTheIdsOfItsSegments() throws Exception {
        Side a = new Side("127.0.0.1", "gso-a.pcap");
        Side b = new Side("127.0.0.1", "gso-b.pcap");
        assumeTrue(a.transport.gso(), "UDP GSO unsupported by this kernel");
        Random rnd = new Random(9);
        List<byte[]> run = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            run.add(TestPackets.sendOnly(rnd, 0x11, i, 512));
        }
        for (byte[] p : run) {
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        }
        a.transport.flush();
        for (byte[] p : run) {
            assertArrayEquals(p, b.take());
        }
        a.transport.close();
        b.transport.close();
        for (Side side : new Side[] {a, b}) {
            List<PcapReader.Record> records = PcapWriterTest.read(side.pcap);
            assertEquals(run.size(), records.size());
            for (int i = 0; i < records.size(); i++) {
                Frame f = Frame.parse(records.get(i));
                assertArrayEquals(run.get(i), f.roce());
                assertEquals(i, f.ipId(), side.pcap.getFileName() + " frame " + (i + 1));
                assertEquals(f.expectedIcrc(), f.icrc());
            }
        }
    }

    /** A direct transport on {@code address} (kernel-chosen port) capturing to a file, driven by the test thread. */
    private final class Side {
        final DirectUdpTransport transport;
        final Path pcap;
        final byte[] address16;
        final Queue<byte[]> received = new ArrayDeque<>();

        Side(String address, String file) {
            pcap = dir.resolve(file);
            transport = DirectUdpTransport.builder().localAddress(address).port(0).pcap(pcap).build();
            open.add(transport);
            address16 = IpAddresses.toBytes16(transport.localAddresses().get(0).getAddress());
            transport.start((packet, offset, length, src, srcPort, dst) -> {
                byte[] copy = new byte[length];
                packet.getBytes(offset, copy);
                received.add(copy);
            });
        }

        int port() {
            return transport.port();
        }

        void send(byte[] packet, Side to) {
            assertTrue(transport.send(new UnsafeBuffer(packet), 0, packet.length, address16, to.address16, to.port()));
            transport.flush();
        }

        byte[] take() {
            long deadline = System.nanoTime() + TIMEOUT_NS;
            while (received.isEmpty()) {
                transport.receive(8);
                assertTrue(System.nanoTime() - deadline < 0, "nothing received within the guard time");
            }
            return received.poll();
        }
    }
}
