package io.jroce.tools.udaddy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** udaddy's command line: its getopt errors and usage, the options jroce refuses, and C's number parsing. */
class UdaddyOptionsTest {
    @Test
    void anUnknownOptionPrintsGetoptsComplaintAndTheUsageAndExitsOne() throws Exception {
        CommandRunner r = CommandRunner.run("udaddy", "-x");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("udaddy: invalid option -- 'x'\n", r.err());
        assertEquals(UdaddyUsage.UDADDY, r.out());
        assertTrue(r.out().endsWith("\t[-p port_space - 0x111 for UDP (default), 0x2 for IPOIB]\n"), r.out());
    }

    @Test
    void aMissingValueIsGetoptsComplaintToo() throws Exception {
        CommandRunner r = CommandRunner.run("udaddy", "-C", "5", "-s");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("udaddy: option requires an argument -- 's'\n", r.err());
        assertEquals(UdaddyUsage.UDADDY, r.out());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"-P, ipoib, IPoIB", "-P, IPoIB, IPoIB", "-p, 0x2, 0x111",
        "-p, 0x106, 0x111", "-f, gid, AF_IB", "-C, -1, negative", "-S, -5, negative"})
    void optionsJroceCannotHonourAreRefusedWithTheReason(String option, String value, String reason) throws Exception {
        CommandRunner r = CommandRunner.run("udaddy", option, value, "-s", "127.0.0.1");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce udaddy: " + option), r.transcript());
        assertTrue(r.err().contains(reason), r.transcript());
        assertEquals("", r.out(), r.transcript());
    }

    @Test
    void aNegativeConnectionCountIsUdaddysFailedAllocation() throws Exception {
        CommandRunner r = CommandRunner.run("udaddy", "-c", "-1");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("udaddy: unable to allocate memory for test nodes\n", r.out());
    }

    @Test
    void unknownFormatsAndPortSpacesAreWarnedAboutAndIgnored() throws Exception {
        CommandRunner r = CommandRunner.run("udaddy", "-P", "tcp", "-f", "host", "-c", "0", "-b", "127.0.0.1");
        assertEquals(0, r.status(), r.transcript());
        assertEquals("Warning: unknown port space format\nWarning: unknown address format\n", r.err());
        assertEquals("udaddy: starting server\nreceiving data transfers\nsending replies\ndata transfers complete\n"
            + "test complete\nreturn status 0\n", r.out(), "-c 0: no request to wait for");
    }

    @Test
    void defaultsAreUdaddys() throws Exception {
        UdaddyOptions o = UdaddyOptions.parse(java.util.List.of(), System.out, System.err).options();
        assertEquals(1, o.connections());
        assertEquals(10, o.count());
        assertEquals(100, o.size());
        assertTrue(o.isServer());
        assertEquals(7174, UdaddyOptions.PORT);
    }

    @ParameterizedTest(name = "atoi(\"{0}\") = {1}")
    @CsvSource({"12, 12", "' 7x', 7, ", "-3, -3", "abc, 0", "99999999999, 1215752191", "99999999999999999999, -1"})
    void atoiIsCs(String text, int value) {
        assertEquals(value, UdaddyOptions.atoi(text));
    }

    @ParameterizedTest(name = "strtol(\"{0}\", 0) = {1}")
    @CsvSource({"0x111, 273", "273, 273", "0421, 273", "0X2, 2", "junk, 0"})
    void strtolReadsEveryBase(String text, long value) {
        assertEquals(value, UdaddyOptions.strtol(text));
    }
}
