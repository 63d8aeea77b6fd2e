package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * udp-floor built and run as the harness does, and the ways it can be missing. The smoke test
 * needs a C compiler: without one it skips, saying so, except under CI=true, where .ci/run installs
 * gcc and a missing {@code cc} is a failure.
 */
class FloorProgramTest {
    private static final long TIMEOUT = 120;

    @Test
    void withoutACompilerTheFloorIsUnavailableNotFailed(@TempDir Path dir) throws Exception {
        FloorProgram p = FloorProgram.build(dir, Optional.empty(), TIMEOUT);
        assertFalse(p.available());
        assertFalse(p.buildFailed());
        assertTrue(p.unavailable().startsWith("no C compiler: `cc` is not on the PATH"), p.unavailable());
        FloorProgram.Outcome out = p.run(dir, "x", List.of("pp", "80", "200"), TIMEOUT);
        assertFalse(out.ok());
        assertTrue(out.failure().contains("no C compiler"), out.failure());
        assertFalse(Files.exists(dir.resolve("x.out")));
    }

    @Test
    void aCompilerThatFailsIsABuildFailure(@TempDir Path dir) throws Exception {
        Path falseCc = Path.of("/bin/false");
        assumeTrue(Files.isExecutable(falseCc), "no /bin/false to stand for a failing compiler");
        FloorProgram p = FloorProgram.build(dir, Optional.of(falseCc), TIMEOUT);
        assertFalse(p.available());
        assertTrue(p.buildFailed());
        assertTrue(p.unavailable().startsWith("/bin/false -O2 -pthread -o "), p.unavailable());
        assertTrue(Files.exists(dir.resolve("udp-floor.c")), "the source is written beside the binary");
    }

    @Test
    void theSourceTravelsOnTheClassPath() throws Exception {
        try (InputStream in = FloorProgram.class.getResourceAsStream(FloorProgram.SOURCE)) {
            assertNotNull(in, FloorProgram.SOURCE);
            String c = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(c.contains("udp-floor pp size=%d: half round trip median %.2f usec, p99 %.2f usec"));
            assertTrue(c.contains("udp-floor bw size=%d: %.3f Gbit/s received, %.3f Mpps"));
        }
    }

    @Test
    void builtWithTheSystemsCcItPrintsParseableFigures(@TempDir Path dir) throws Exception {
        Optional<Path> cc = FloorProgram.systemCc();
        if (cc.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true: no cc on the PATH, though .ci/run installs gcc");
            }
            assumeTrue(false, "no cc on the PATH: udp-floor cannot be built here (install gcc to run this test)");
        }
        FloorProgram p = FloorProgram.build(dir, cc, TIMEOUT);
        assertTrue(p.available(), p.unavailable());

        FloorProgram.Outcome pp = p.run(dir, "pp", List.of("pp", "80", "200"), TIMEOUT);
        assertTrue(pp.ok(), pp.failure());
        assertEquals("pp", pp.report().mode());
        assertEquals(80, pp.report().size());
        assertFalse(Double.isNaN(pp.report().medianUs()) || Double.isNaN(pp.report().p99Us()));

        // Pinned, each process on a CPU of its own; a CPU that does not exist is an error, not a hang.
        List<Integer> cpus = CpuPinning.allowedCpus(java.nio.file.Files.readString(Path.of("/proc/self/status")));
        if (cpus.size() >= 2) {
            FloorProgram.Outcome pinned = p.run(dir, "pinned", List.of("pp", "80", "200", cpus.get(1).toString(),
                cpus.get(0).toString()), TIMEOUT);
            assertTrue(pinned.ok(), pinned.failure());
        }
        FloorProgram.Outcome noSuchCpu = p.run(dir, "nocpu", List.of("pp", "80", "200", "0", "100000"), TIMEOUT);
        assertFalse(noSuchCpu.ok(), "pinned to CPU 100000");
        assertTrue(noSuchCpu.failure().startsWith("nocpu: exit status 1"), noSuchCpu.failure());

        FloorProgram.Outcome bw = p.run(dir, "bw", List.of("bw", "96", "1"), TIMEOUT);
        assertTrue(bw.ok(), bw.failure());
        assertEquals("bw", bw.report().mode());
        assertEquals(96, bw.report().size());
        assertFalse(Double.isNaN(bw.report().gbps()) || Double.isNaN(bw.report().mpps()));
        assertEquals(2, Figure.of(bw.report(), FloorRun.floorStream(FloorDatagram.writeOnly(64), 1)).size());
    }
}
