package io.jroce.testcontainers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The container module against real guests: a kept guest running several commands (one after
 * the other and at once) with a program compiled for it and a file copied into it, a one-command
 * guest, IPv4 and IPv6 on a network of its own, and the failures a user must be able to read.
 */
@RequiresRxePeer
class RxeContainerTest {
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void aKeptGuestRunsSeveralCommandsWithTheUsersProgramAndFiles(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("greet");
        Files.writeString(script, "#!/bin/sh\necho \"greetings from $(uname -s) with $1\"\n");
        try (RxeContainer rxe = new RxeContainer().withPeerName("kept")
                 .withGuestProgram(Path.of("src/test/c/port_state.c"))
                 .withGuestFile(script, "/opt/greet")) {
            rxe.start(); // returns once rxe0 is up
            assertTrue(rxe.isKept());

            GuestResult devinfo = rxe.run("ibv_devinfo -d rxe0", WAIT);
            assertEquals(0, devinfo.exitStatus(), devinfo.console());
            assertTrue(devinfo.outputText().contains("PORT_ACTIVE"), devinfo.outputText());

            // the user's program, compiled on this host against the image's libibverbs, on the PATH
            GuestResult ports = rxe.run("port_state", WAIT);
            assertEquals(1, ports.exitStatus(), ports.console()); // its status: the number of devices
            assertEquals(List.of("rxe0 port 1 active mtu 1024"), ports.output());

            GuestResult greet = rxe.run("/opt/greet rxe0", WAIT);
            assertEquals(List.of("greetings from Linux with rxe0"), greet.output(), greet.console());

            GuestResult failing = rxe.run("echo before; exit 3", WAIT);
            assertEquals(3, failing.exitStatus());
            assertEquals(List.of("before"), failing.output());

            // two at once: the second ends first, each with its own status
            GuestCommand slow = rxe.launch("sleep 2; echo slow done; exit 5");
            GuestCommand fast = rxe.launch("echo fast done");
            assertEquals(0, fast.awaitExit(WAIT).exitStatus());
            assertEquals("fast done", fast.awaitOutput("done", WAIT));
            GuestResult s = slow.awaitExit(WAIT);
            assertEquals(5, s.exitStatus());
            assertTrue(s.output().contains("slow done"), s.output().toString());

            assertThrows(IllegalStateException.class, () -> rxe.awaitExit(WAIT), "a kept guest has no single exit");
        }
    }

    @Test
    void aOneCommandGuestReportsItsStatusAndTakesNoOtherCommand() {
        try (RxeContainer rxe = new RxeContainer().withGuestCommand("ibv_devinfo -d rxe0 | grep -c PORT_ACTIVE; exit 4")) {
            rxe.start();
            assertFalse(rxe.isKept());
            GuestResult r = rxe.awaitExit(WAIT);
            assertEquals(4, r.exitStatus(), r.console());
            assertEquals(List.of("1"), r.output());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rxe.launch("true"));
            assertTrue(e.getMessage().contains("takes no others"), e.getMessage());
        }
    }

    @Test
    void aGuestOnAnIpv6NetworkHasItsGidsAndAddresses() {
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create();
             RxeContainer rxe = new RxeContainer().withRxeNetwork(network)) {
            rxe.start();
            List<String> gids = rxe.awaitReady(WAIT);
            assertEquals(3, gids.size(), gids.toString());
            assertTrue(gids.get(0).startsWith("fe80:"), gids.toString());
            assertTrue(gids.get(1).startsWith("0000:0000:0000:0000:0000:ffff:"), gids.toString());
            String ipv6 = rxe.ipv6().orElseThrow();
            GuestResult addr = rxe.run("ip -6 -o addr show dev eth0 scope global; ip -4 -o addr show dev eth0", WAIT);
            assertTrue(addr.outputText().contains(ipv6 + "/"), addr.outputText());
            assertTrue(addr.outputText().contains(rxe.ipv4() + "/" + rxe.ipv4PrefixLength()), addr.outputText());
            // the host reaches the guest on that network: rxe's GID 1 is the container's IPv4 address
            GuestResult ping = rxe.run("ping -c 1 -W 5 " + network.hostIpv4(), WAIT);
            assertEquals(0, ping.exitStatus(), ping.console());
        }
    }

    @Test
    void aGuestThatOutlivesItsTimeoutEndsAndSaysSo() {
        try (RxeContainer rxe = new RxeContainer().withGuestTimeout(Duration.ofSeconds(2))) {
            rxe.start();
            GuestCommand sleeper = rxe.launch("sleep 600");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> sleeper.awaitExit(WAIT));
            assertTrue(e.getMessage().contains("the kept guest reached its lifetime of 2 s"), e.getMessage());
            assertTrue(e.getMessage().contains("--- console of "), "the console is in the message: " + e.getMessage());
        }
    }

    @Test
    void aProgramThatDoesNotCompileSaysWhy(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.c");
        Files.writeString(bad, "#include <infiniband/verbs.h>\nint main(void) { return ibv_no_such_call(); }\n");
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> GuestProgram.compile(RxeLab.imageName(), bad));
        assertTrue(e.getMessage().contains("ibv_no_such_call"), e.getMessage());
        assertTrue(e.getMessage().startsWith("cannot compile " + bad), e.getMessage());
    }
}
