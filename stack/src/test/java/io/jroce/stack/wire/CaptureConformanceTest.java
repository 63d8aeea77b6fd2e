package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.PcapReader;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parses every RoCEv2 packet of the real rxe captures with the flyweights and the opcode table,
 * and compares every header field with what tshark decoded once (captures/README.md); the
 * captures of naks/ too, where jroce is one end.
 */
class CaptureConformanceTest {
    /** The packets in all the rxe captures (docs/udp-transport.md quotes it). */
    private static final int PACKETS_IN_ALL_CAPTURES = 1992;

    /** The rxe-to-rxe captures. */
    static Stream<String> captures() throws IOException, URISyntaxException {
        return names("");
    }

    /** Those and the jroce-and-rxe captures of NAKs and retransmissions in naks/ (captures/README.md). */
    static Stream<String> capturesWithNaks() throws IOException, URISyntaxException {
        List<String> naks = names("naks/").toList();
        assertTrue(naks.size() >= 4, "captures/naks/ holds its captures: " + naks);
        return Stream.concat(captures(), naks.stream());
    }

    /** The captures in {@code /captures/<folder>}, as {@code <folder><name>} without {@code .pcap}. */
    private static Stream<String> names(String folder) throws IOException, URISyntaxException {
        URL dir = CaptureConformanceTest.class.getResource("/captures/" + folder);
        assertNotNull(dir, "captures/" + folder + " on the test classpath");
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            return files.map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(".pcap"))
                .map(n -> folder + n.substring(0, n.length() - ".pcap".length()))
                .sorted()
                .toList()
                .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capturesWithNaks")
    void everyRocePacketMatchesTshark(String capture) throws IOException {
        Map<Integer, ExpectedFields.Row> expected;
        try (InputStream in = resource(capture + ".expected.tsv")) {
            expected = ExpectedFields.read(in);
        }
        RocePacket packet = new RocePacket();
        Set<Integer> parsed = new TreeSet<>();
        for (PcapReader.Record record : records(capture)) {
            RoceFrame frame = RoceFrame.of(record.data());
            if (frame == null) {
                continue;
            }
            String where = capture + " frame " + record.index();
            ExpectedFields.Row row = expected.get(record.index());
            assertNotNull(row, where + ": RoCE packet missing from the .tsv");
            assertEquals(row.dec("udp.length"), frame.udpLength(), where + " udp.length");
            assertEquals(ParseResult.OK, packet.wrap(frame.frame(), frame.bthOffset(), frame.packetLength()), where);
            new PacketCheck(where, row, packet).run();
            assertEquals((int) row.hex("infiniband.invariant.crc"), frame.icrcAsShown(), where + " ICRC bytes");
            parsed.add(record.index());
        }
        assertEquals(expected.keySet(), parsed, capture + ": frames parsed vs frames tshark decoded");
    }

    @Test
    void capturesHoldEveryPacketTheLabFactsCount() throws IOException, URISyntaxException {
        int total = 0;
        for (String capture : captures().toList()) {
            for (PcapReader.Record record : records(capture)) {
                if (RoceFrame.of(record.data()) != null) {
                    total++;
                }
            }
        }
        assertEquals(PACKETS_IN_ALL_CAPTURES, total);
    }

    private static List<PcapReader.Record> records(String capture) throws IOException {
        try (InputStream in = resource(capture + ".pcap")) {
            List<PcapReader.Record> records = PcapReader.read(in);
            assertTrue(records.stream().allMatch(r -> r.linkType() == PcapReader.LINKTYPE_ETHERNET), capture);
            return records;
        }
    }

    private static InputStream resource(String name) {
        InputStream in = CaptureConformanceTest.class.getResourceAsStream("/captures/" + name);
        assertNotNull(in, "captures/" + name);
        return in;
    }

    /** Compares one parsed packet with its tshark row, header by header. */
    private record PacketCheck(String where, ExpectedFields.Row row, RocePacket packet) {
        void run() {
            OpcodeInfo info = packet.info();
            bth(packet.bth());
            if (present("infiniband.deth.q_key", info.has(ExtensionHeader.DETH))) {
                DethFlyweight deth = packet.deth();
                equal("infiniband.deth.q_key", row.hex("infiniband.deth.q_key"), Integer.toUnsignedLong(deth.qKey()));
                equal("infiniband.deth.srcqp", row.hex("infiniband.deth.srcqp"), deth.sourceQp());
            }
            // tshark shows the RETH's and the AtomicETH's VA and R_Key under the same field names.
            boolean vaPresent = info.has(ExtensionHeader.RETH) || info.has(ExtensionHeader.ATOMIC_ETH);
            present("infiniband.reth.va", vaPresent);
            present("infiniband.reth.r_key", vaPresent);
            if (present("infiniband.reth.dmalen", info.has(ExtensionHeader.RETH))) {
                RethFlyweight reth = packet.reth();
                equal("infiniband.reth.va", row.hex("infiniband.reth.va"), reth.virtualAddress());
                equal("infiniband.reth.r_key", row.hex("infiniband.reth.r_key"), Integer.toUnsignedLong(reth.rKey()));
                equal("infiniband.reth.dmalen", row.dec("infiniband.reth.dmalen"), reth.dmaLength());
            }
            present("infiniband.atomiceth.cmpdt", info.has(ExtensionHeader.ATOMIC_ETH));
            if (present("infiniband.atomiceth.swapdt", info.has(ExtensionHeader.ATOMIC_ETH))) {
                AtomicEthFlyweight atomic = packet.atomicEth();
                equal("infiniband.reth.va", row.hex("infiniband.reth.va"), atomic.virtualAddress());
                equal("infiniband.reth.r_key", row.hex("infiniband.reth.r_key"), Integer.toUnsignedLong(atomic.rKey()));
                equal("infiniband.atomiceth.swapdt", row.dec("infiniband.atomiceth.swapdt"), atomic.swapAddData());
                equal("infiniband.atomiceth.cmpdt", row.dec("infiniband.atomiceth.cmpdt"), atomic.compareData());
            }
            present("infiniband.aeth.msn", info.has(ExtensionHeader.AETH));
            if (present("infiniband.aeth.syndrome", info.has(ExtensionHeader.AETH))) {
                equal("infiniband.aeth.syndrome", row.dec("infiniband.aeth.syndrome"), packet.aeth().syndrome());
                equal("infiniband.aeth.msn", row.dec("infiniband.aeth.msn"), packet.aeth().msn());
            }
            if (present("infiniband.atomicacketh.origremdt", info.has(ExtensionHeader.ATOMIC_ACK_ETH))) {
                equal("infiniband.atomicacketh.origremdt", row.dec("infiniband.atomicacketh.origremdt"),
                    packet.atomicAckEth().originalRemoteData());
            }
            if (present("infiniband.immdt", info.has(ExtensionHeader.IMM_DT))) {
                equal("infiniband.immdt", row.hex("infiniband.immdt"),
                    Integer.toUnsignedLong(packet.immDt().immediateData()));
            }
            if (present("infiniband.ieth", info.has(ExtensionHeader.IETH))) {
                equal("infiniband.ieth", row.hex("infiniband.ieth"), Integer.toUnsignedLong(packet.ieth().rKey()));
            }
            equal("payload_len", row.dec("payload_len"), packet.payloadLength());
            equal("payload_len from the UDP length", row.dec("payload_len"),
                RoceV2.payloadLength((int) row.dec("udp.length"), info.headerLength(), packet.bth().padCount()));
        }

        private void bth(BthFlyweight bth) {
            equal("infiniband.bth.opcode", row.dec("infiniband.bth.opcode"), bth.opcode());
            assertEquals(row.bool("infiniband.bth.se"), bth.solicitedEvent(), where + " se");
            assertEquals(row.bool("infiniband.bth.m"), bth.migReq(), where + " m");
            equal("infiniband.bth.padcnt", row.dec("infiniband.bth.padcnt"), bth.padCount());
            equal("infiniband.bth.tver", row.dec("infiniband.bth.tver"), bth.transportVersion());
            equal("infiniband.bth.p_key", row.dec("infiniband.bth.p_key"), bth.partitionKey());
            equal("infiniband.reserved", row.hex("infiniband.reserved"), bth.reservedByte());
            equal("infiniband.bth.destqp", row.hex("infiniband.bth.destqp"), bth.destQp());
            assertEquals(row.bool("infiniband.bth.a"), bth.ackRequest(), where + " a");
            equal("infiniband.bth.reserved7", row.dec("infiniband.bth.reserved7"), bth.reserved7());
            equal("infiniband.bth.psn", row.dec("infiniband.bth.psn"), bth.psn());
        }

        /** Checks that tshark decoded the field exactly when the opcode table says the header is there. */
        private boolean present(String column, boolean expected) {
            assertEquals(expected, !row.isEmpty(column), where + " " + column + " presence");
            return expected;
        }

        private void equal(String column, long expected, long actual) {
            assertEquals(expected, actual, where + " " + column);
        }
    }
}
