package io.jroce.tools.mckey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** mckey's command line: its getopt errors and usage, the options jroce refuses, a group that does not resolve. */
class MckeyOptionsTest {
    @Test
    void anUnknownOptionPrintsGetoptsComplaintAndTheUsageAndExitsOne() throws Exception {
        CommandRunner r = CommandRunner.run("mckey", "-x");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("mckey: invalid option -- 'x'\n", r.err());
        assertEquals(MckeyUsage.MCKEY, r.out());
        assertTrue(r.out().endsWith("\t[-o join as a send-only full-member]\n\t[-l join without multicast loopback]\n"),
            r.out());
    }

    @Test
    void aMissingValueIsGetoptsComplaintToo() throws Exception {
        CommandRunner r = CommandRunner.run("mckey", "-s", "-m");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("mckey: option requires an argument -- 'm'\n", r.err());
        assertEquals(MckeyUsage.MCKEY, r.out());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"-M, ff0e::1, AF_IB", "-p, 0x2, 0x111", "-p, 0x106, 0x111", "-C, -1, negative", "-S, -5, negative"})
    void optionsWithAValueJroceCannotHonourAreRefusedWithTheReason(String option, String value, String reason)
        throws Exception {
        CommandRunner r = CommandRunner.run("mckey", option, value, "-m", "239.255.0.1");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce mckey: " + option), r.transcript());
        assertTrue(r.err().contains(reason), r.transcript());
        assertEquals("", r.out(), r.transcript());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-l, BLOCK_SELF_MCAST_LB"})
    void flagsJroceCannotHonourAreRefusedWithTheReason(String option, String reason) throws Exception {
        CommandRunner r = CommandRunner.run("mckey", option, "-m", "239.255.0.1");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce mckey: " + option), r.transcript());
        assertTrue(r.err().contains(reason), r.transcript());
        assertEquals("", r.out(), r.transcript());
    }

    @Test
    void theUdpPortSpaceIsTakenInAnyBase() {
        assertEquals(0x111, MckeyOptions.strtol("0x111"));
        assertEquals(0x111, MckeyOptions.strtol("273"));
        assertEquals(0x111, MckeyOptions.strtol("0421"));
        assertEquals(2, MckeyOptions.strtol("2abc"));
    }

    /** Without -m, mckey's getaddrinfo(NULL, NULL) fails with EAI_NONAME: return status -2, exit 254. */
    @Test
    void noGroupIsGetaddrinfosNoname() throws Exception {
        CommandRunner r = CommandRunner.run("mckey", "-s");
        assertEquals(254, r.status(), r.transcript());
        assertEquals("mckey: starting client\ngetaddrinfo failed (Name or service not known) - invalid hostname or IP"
            + " address\ntest complete\nreturn status -2\n", r.out());
    }

    @Test
    void aGroupThatDoesNotResolveIsGetaddrinfosNonameToo() throws Exception {
        CommandRunner r = CommandRunner.run("mckey", "-m", "no-such-host.invalid");
        assertEquals(254, r.status(), r.transcript());
        assertEquals("mckey: starting server\ngetaddrinfo failed (Name or service not known) - invalid hostname or IP"
            + " address\ntest complete\nreturn status -2\n", r.out());
    }
}
