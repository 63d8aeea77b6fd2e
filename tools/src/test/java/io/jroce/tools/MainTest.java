package io.jroce.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MainTest {
    private CommandRunner last;

    private int run(String... args) throws InterruptedException {
        last = CommandRunner.run(args);
        return last.status();
    }

    private String out() {
        return last.out();
    }

    private String err() {
        return last.err();
    }

    @Test
    void helpListsEveryCommand() throws InterruptedException {
        assertEquals(ExitStatus.OK, run("help"));
        for (Command c : Commands.all()) {
            assertTrue(out().contains("  " + c.name() + " "), out());
        }
        assertTrue(out().startsWith("usage: jroce <command>"), out());
    }

    /** One line: jroce's version (unknown when run from classes, as here) and the runtime's. */
    @Test
    void versionPrintsOneLineWithTheRuntime() throws InterruptedException {
        for (String spelling : new String[] {"--version", "version"}) {
            assertEquals(ExitStatus.OK, run(spelling));
            assertEquals("", err());
            assertTrue(out().matches("jroce \\S.* \\(Java " + java.util.regex.Pattern.quote(Runtime.version().toString())
                + ", .+\\)\\R"), out());
        }
    }

    @Test
    void noArgumentsIsAUsageError() throws InterruptedException {
        assertEquals(ExitStatus.USAGE, run());
        assertTrue(err().startsWith("usage: jroce"), err());
    }

    @Test
    void unknownCommandIsAUsageError() throws InterruptedException {
        assertEquals(ExitStatus.USAGE, run("frobnicate"));
        assertTrue(err().contains("unknown command 'frobnicate'"), err());
    }

    @Test
    void helpForOneCommandPrintsItsUsage() throws InterruptedException {
        assertEquals(ExitStatus.OK, run("help", "demo"));
        assertTrue(out().startsWith("usage: jroce demo"), out());
        assertEquals(ExitStatus.OK, run("devinfo", "--help"));
        assertTrue(out().startsWith("usage: jroce devinfo"), out());
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheOption() throws InterruptedException {
        assertEquals(ExitStatus.USAGE, run("demo", "--bogus"));
        assertTrue(err().contains("jroce demo: unknown option '--bogus'"), err());
        assertEquals(ExitStatus.USAGE, run("demo", "--mtu", "1000"));
        assertTrue(err().contains("--mtu must be 256, 512, 1024, 2048 or 4096, got 1000"), err());
        assertEquals(ExitStatus.USAGE, run("devinfo", "--bind", "localhost"));
        assertTrue(err().contains("--bind needs an IP address literal"), err());
    }
}
