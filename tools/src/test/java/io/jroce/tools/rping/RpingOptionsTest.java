package io.jroce.tools.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.cmcommon.CLib;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** rping's option parsing: its defaults, its messages and exit statuses for bad options, and jroce's refusals. */
class RpingOptionsTest {
    private static RpingOptions parse(String... args) throws Exception {
        RpingOptions.Parsed p = RpingOptions.parse(List.of(args), System.out, System.err);
        assertEquals(0, p.status());
        return p.options();
    }

    @Test
    void defaultsAreRpings() throws Exception {
        RpingOptions o = parse("-c", "-a", "127.0.0.1");
        assertEquals(7174, o.port());
        assertEquals(64, o.size());
        assertEquals(0, o.count());
        assertEquals(InetAddress.getByName("127.0.0.1"), o.address());
        assertEquals(false, o.server());
        assertEquals(InetAddress.getByName("0.0.0.0"), parse("-s").address(), "rping's sin: AF_INET, any");
    }

    @Test
    void valuesAreReadAsAtoiReadsThem() throws Exception {
        RpingOptions o = parse("-s", "-S", "100k", "-C", "12abc", "-p", "70000");
        assertEquals(100, o.size());
        assertEquals(12, o.count());
        assertEquals(70000 & 0xFFFF, o.port(), "htobe16 keeps 16 bits");
        assertEquals(0, parse("-c", "-C", "forever").count(), "atoi of no digits: 0, ping forever");
        assertEquals(-1, CLib.atoi("99999999999999999999"), "strtol's LONG_MAX cast to int");
    }

    @Test
    void noRoleUnknownOptionsAndMissingValuesPrintRpingsUsageWithEinval() throws Exception {
        for (String[] args : List.of(new String[] {}, new String[] {"-v"}, new String[] {"-s", "-x"},
            new String[] {"-c", "-a"}, new String[] {"-s", "-t", "5"}, new String[] {"-s", "--foo"})) {
            CommandRunner r = CommandRunner.run(concat(args));
            assertEquals(22, r.status(), r.transcript());
            assertEquals(RpingUsage.RPING, r.out(), r.transcript());
            assertEquals("", r.err(), r.transcript());
        }
    }

    @Test
    void badSizeAndCountAreRpingsMessagesWithEinval() throws Exception {
        CommandRunner small = CommandRunner.run("rping", "-s", "-S", "25");
        assertEquals(22, small.status(), small.transcript());
        assertEquals("Invalid size 25 (valid range is 26 to 65536)\n", small.err(), small.transcript());
        CommandRunner large = CommandRunner.run("rping", "-s", "-S", "65536");
        assertEquals("Invalid size 65536 (valid range is 26 to 65536)\n", large.err(), large.transcript());
        assertEquals(22, large.status());
        // -a after -C would set rping's ret back to 0 (get_addr's success) and run with the bad count
        CommandRunner count = CommandRunner.run("rping", "-c", "-a", "127.0.0.1", "-C", "-1");
        assertEquals(22, count.status(), count.transcript());
        assertEquals("Invalid count -1\n", count.err(), count.transcript());
        assertEquals(0, parse("-s", "-S", "26").size() - 26);
        assertEquals(65535, parse("-s", "-S", "65535").size());
    }

    @Test
    void debugLinesOfTheOptionsFollowTheirOrder() throws Exception {
        CommandRunner r = CommandRunner.run("rping", "-v", "-d", "-c", "-S", "100", "-C", "5", "-v", "-V", "-p", "7000",
            "-x");
        assertEquals(22, r.status(), r.transcript());
        assertEquals("client\nsize 100\ncount 5\nverbose\nvalidate data\nport 7000\n" + RpingUsage.RPING, r.out(),
            r.transcript());
    }

    @Test
    void anAddressThatDoesNotResolveIsGetaddrinfosComplaintWithStatus254() throws Exception {
        CommandRunner r = CommandRunner.run("rping", "-c", "-a", "no-such-host.invalid");
        assertEquals(254, r.status(), r.transcript());
        assertEquals("getaddrinfo failed (Name or service not known) - invalid hostname or IP address\n", r.out(),
            r.transcript());
        CommandRunner later = CommandRunner.run("rping", "-c", "-a", "no-such-host.invalid", "-S", "10");
        assertEquals(22, later.status(), "the last failure decides, as rping's ret: " + later.transcript());
    }

    @Test
    void selfCreatedQpAndBadJroceOptionsAreRefusedAsJroceRefusesOptions() throws Exception {
        CommandRunner q = CommandRunner.run("rping", "-c", "-q", "-a", "127.0.0.1");
        assertEquals(2, q.status(), q.transcript());
        assertTrue(q.err().startsWith("jroce rping: -q (a self-created QP"), q.transcript());
        assertTrue(q.err().contains("is not supported"), q.transcript());
        CommandRunner bind = CommandRunner.run("rping", "-s", "--bind", "nonsense");
        assertEquals(2, bind.status(), bind.transcript());
        assertTrue(bind.err().startsWith("jroce rping: --bind needs an IP address literal, got 'nonsense'"),
            bind.transcript());
    }

    @Test
    void helpDescribesTheTwinAndItsRefusals() throws Exception {
        CommandRunner r = CommandRunner.run("help", "rping");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("usage: jroce rping -s"), r.out());
        assertTrue(r.out().contains("-q            use a self-created, self-modified QP: refused"), r.out());
        assertTrue(CommandRunner.run("help").out().contains("  rping "), "listed in jroce help");
    }

    private static String[] concat(String[] args) {
        String[] all = new String[args.length + 1];
        all[0] = "rping";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
