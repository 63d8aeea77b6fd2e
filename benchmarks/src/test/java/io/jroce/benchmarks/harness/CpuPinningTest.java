package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which CPUs a latency pair is pinned to, read from /proc/PID/status, and the commands that pin it. */
class CpuPinningTest {
    private static final Path TASKSET = Path.of("/usr/bin/taskset");

    @Test
    void theAllowedListIsReadAsTheKernelWritesIt() {
        assertEquals(List.of(0, 1), CpuPinning.allowedCpus("Name:\tjava\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"));
        assertEquals(List.of(0, 1, 4, 6, 7), CpuPinning.allowedCpus("Cpus_allowed_list:\t0-1,4,6-7\n"));
        assertEquals(List.of(3), CpuPinning.allowedCpus("Cpus_allowed_list:\t3"));
        assertEquals(List.of(), CpuPinning.allowedCpus("Name:\tjava\n"), "no such line: no CPUs known");
    }

    @Test
    void theServerTakesTheFirstCpuAndTheClientTheSecond() {
        CpuPinning p = CpuPinning.of(List.of(2, 3, 5), TASKSET);
        assertTrue(p.active());
        assertEquals(List.of("/usr/bin/taskset", "-c", "2"), p.prefix(false));
        assertEquals(List.of("/usr/bin/taskset", "-c", "3"), p.prefix(true));
        assertEquals(List.of("3", "2"), p.floorArgs(), "udp-floor pp: the timing (client) side's CPU, then the echo side's");
        assertEquals("latency pairs pinned: server on CPU 2, client on CPU 3", p.why());
    }

    @Test
    void oneCpuOrNoPinningLeavesTheCommandsAlone() {
        CpuPinning one = CpuPinning.of(List.of(0), TASKSET);
        assertFalse(one.active());
        assertEquals(List.of(), one.prefix(true));
        assertEquals(List.of(), one.floorArgs());
        assertEquals("not pinned: this process may use 1 CPU(s), a pair needs 2", one.why());
        CpuPinning off = CpuPinning.detect(false);
        assertFalse(off.active());
        assertEquals("not pinned (--no-pin)", off.why());
    }
}
