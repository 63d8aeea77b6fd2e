package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.UsageException;
import io.jroce.verbs.Mtu;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PingpongOptionsTest {
    private static PingpongOptions parse(String... args) throws UsageException {
        return PingpongOptions.parse(List.of(args));
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void defaultsAreIbvRcPingpongs() throws UsageException {
        PingpongOptions o = parse();
        assertNull(o.host());
        assertFalse(o.isClient());
        assertEquals(18515, o.tcpPort());
        assertEquals("jroce0", o.device().name());
        assertEquals(4096, o.size());
        assertEquals(Mtu.MTU_1024, o.mtu());
        assertEquals(500, o.rxDepth());
        assertEquals(1000, o.iters());
        assertEquals(0, o.sl());
        assertEquals(-1, o.gidIndex());
        assertEquals(0, o.sgidIndex());
        assertEquals(new PingpongOptions.Flags(false, false, false, false, false, false, false, false), o.flags());
        assertEquals(List.of("127.0.0.1"), o.device().binds());
        assertEquals(4791, o.device().udpPort());
        assertEquals(4791, o.device().peerUdpPort());
        assertNull(o.device().pcap());
        assertEquals(0, o.timeoutSeconds());
    }

    private static PingpongOptions parse(PingpongTool tool, String... args) throws UsageException {
        return PingpongOptions.parse(tool, List.of(args));
    }

    @Test
    void eachToolHasItsOwnDefaults() throws UsageException {
        assertEquals(PingpongTool.RC, parse().tool());
        assertEquals(1, parse().numQp());
        PingpongOptions uc = parse(PingpongTool.UC);
        assertEquals(4096, uc.size());
        assertEquals(Mtu.MTU_1024, uc.mtu());
        assertEquals(1, uc.numQp());
        PingpongOptions ud = parse(PingpongTool.UD);
        assertEquals(1024, ud.size(), "ibv_ud_pingpong's default (its help says 2048)");
        assertEquals(1, ud.numQp());
        PingpongOptions srq = parse(PingpongTool.SRQ);
        assertEquals(4096, srq.size());
        assertEquals(16, srq.numQp());
        for (PingpongOptions o : List.of(uc, ud, srq)) {
            assertEquals(18515, o.tcpPort());
            assertEquals(500, o.rxDepth());
            assertEquals(1000, o.iters());
            assertEquals(-1, o.gidIndex());
            assertEquals(List.of("127.0.0.1"), o.device().binds());
        }
    }

    @Test
    void srqTakesTheQpCountShortLongAndBundled() throws UsageException {
        assertEquals(4, parse(PingpongTool.SRQ, "-q", "4").numQp());
        assertEquals(5, parse(PingpongTool.SRQ, "--num-qp=5").numQp());
        PingpongOptions o = parse(PingpongTool.SRQ, "-ceq7", "-o", "h");
        assertEquals(7, o.numQp());
        assertTrue(o.flags().validate() && o.flags().events() && o.flags().odp());
        assertEquals("h", o.host());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "UD|-m 1024|unknown option '-m'",
        "UD|--mtu=1024|unknown option '--mtu'",
        "UD|-ec -N|unknown option '-N'",
        "UC|-o|unknown option '-o'",
        "UC|--iodp|unknown option '--iodp'",
        "UC|-q 2|unknown option '-q'",
        "RC|--num-qp 2|unknown option '--num-qp'",
        "SRQ|-t|unknown option '-t'",
        "SRQ|-q 0|-q needs a number from 1 to 2147483647, got '0'"})
    void eachToolKnowsOnlyItsOwnOptions(PingpongTool tool, String args, String message) {
        assertEquals(message, assertThrows(UsageException.class, () -> parse(tool, args.split(" "))).getMessage());
    }

    @Test
    void theHelpListsEachToolsOwnOptions() {
        assertTrue(PingpongOptions.usage(PingpongTool.SRQ).contains("-q, --num-qp=<num>"));
        assertFalse(PingpongOptions.usage(PingpongTool.UD).contains("--mtu"));
        assertTrue(PingpongOptions.usage(PingpongTool.UD).contains("(default 1024)"));
        assertFalse(PingpongOptions.usage(PingpongTool.UC).contains("--odp"));
        assertTrue(PingpongOptions.USAGE.startsWith("usage: jroce rc_pingpong [options]"));
        for (PingpongTool t : PingpongTool.values()) {
            assertTrue(PingpongOptions.usage(t).contains("--peer-udp-port N"), t.toString());
        }
    }

    @Test
    void shortOptionsTakeValuesSeparateOrAttachedAndFlagsBundle() throws UsageException {
        PingpongOptions o = parse("-p18516", "-s", "1", "-m2048", "-r", "0x10", "-n7", "-l", "5", "-g0", "-ceN",
            "-d", "rxe0", "-i", "1", "server");
        assertEquals("server", o.host());
        assertEquals(18516, o.tcpPort());
        assertEquals(1, o.size());
        assertEquals(Mtu.MTU_2048, o.mtu());
        assertEquals(16, o.rxDepth(), "strtoul with base 0 reads hexadecimal");
        assertEquals(7, o.iters());
        assertEquals(5, o.sl());
        assertEquals(0, o.gidIndex());
        assertEquals("rxe0", o.device().name());
        assertTrue(o.flags().validate());
        assertTrue(o.flags().events());
        assertTrue(o.flags().newSend());
    }

    @Test
    void longOptionsTakeValuesWithOrWithoutEqualsAndTheHostMayComeFirst() throws UsageException {
        PingpongOptions o = parse("10.0.0.2", "--port=1", "--size", "3", "--iters=9", "--gid-idx", "1", "--chk",
            "--bind", "10.0.0.1", "--bind=fe80::1", "--udp-port", "5000", "--peer-udp-port=5001", "--pcap",
            "x.pcap", "--timeout=7");
        assertEquals("10.0.0.2", o.host());
        assertEquals(1, o.tcpPort());
        assertEquals(3, o.size());
        assertEquals(9, o.iters());
        assertEquals(1, o.sgidIndex());
        assertEquals(List.of("10.0.0.1", "fe80::1"), o.device().binds());
        assertEquals(5000, o.device().udpPort());
        assertEquals(5001, o.device().peerUdpPort());
        assertEquals(Path.of("x.pcap"), o.device().pcap());
        assertEquals(7, o.timeoutSeconds());
    }

    @Test
    void theUnsupportedFlagsAreRecognised() throws UsageException {
        PingpongOptions.Flags f = parse("-o", "-O", "-P", "-t", "-j").flags();
        assertTrue(f.odp() && f.implicitOdp() && f.prefetch() && f.timestamps() && f.deviceMemory());
        assertEquals(parse("--odp", "--iodp", "--prefetch", "--ts", "--dm").flags(), f);
    }

    @Test
    void doubleDashEndsTheOptions() throws UsageException {
        assertEquals("-weird-host", parse("-n", "3", "--", "-weird-host").host());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-m 1000|-m must be 256, 512, 1024, 2048 or 4096, got 1000",
        "--mtu=100|--mtu must be 256, 512, 1024, 2048 or 4096, got 100",
        "-i 2|-i must be 1: a jroce device has one port",
        "-x|unknown option '-x'",
        "-cx|unknown option '-x'",
        "--frobnicate|unknown option '--frobnicate'",
        "-p 70000|-p needs a number from 1 to 65535, got '70000'",
        "-n 0|-n needs a number from 1 to 2147483647, got '0'",
        "-s abc|-s needs a number from 1 to 2147483647, got 'abc'",
        "-l 16|-l needs a number from 0 to 15, got '16'",
        "--chk=1|--chk takes no value",
        "--bind localhost|--bind needs an IP address literal, got 'localhost'",
        "a b|one server host at most, got 'a' and 'b'",
        "-s|-s needs a value"})
    void badCommandLinesAreUsageErrors(String args, String message) {
        assertEquals(message, error(args.split(" ")));
    }
}
