package io.jroce.rnic;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every RC operation survives a bad network: up to 20% loss per direction, with duplication,
 * reordering, jitter and bit errors, {@value Configuration#SEEDS_DEFAULT} seeds per scenario
 * ({@code -Djroce.seeds=2000} for more, {@code -Djroce.seed=N} to replay one). Each operation must
 * complete exactly once, successfully, in posted order, and leave memory byte-exact; QPs use
 * timeout 14 and retry_cnt 7, which the virtual clock makes free. See {@link ReliabilityRun}.
 */
class RcReliabilityFabricTest {
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void sends(long seed) {
        new ReliabilityRun(RcWorkload.Mix.SENDS, seed).runAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void writes(long seed) {
        new ReliabilityRun(RcWorkload.Mix.WRITES, seed).runAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void reads(long seed) {
        new ReliabilityRun(RcWorkload.Mix.READS, seed).runAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void atomics(long seed) {
        new ReliabilityRun(RcWorkload.Mix.ATOMICS, seed).runAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void mixed(long seed) {
        new ReliabilityRun(RcWorkload.Mix.MIXED, seed).runAndCheck();
    }

    /** Every operation both ways at once: each QP is requester and responder, on shared links. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void mixedBothWays(long seed) {
        new ReliabilityRun(RcWorkload.Mix.MIXED, seed).bothWays().runAndCheck();
    }

    /** Every operation, with receive WQEs posted late: RNR NAKs on top of the lossy network. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.jroce.rnic.Seeds#seeds")
    void mixedWithLateReceives(long seed) {
        new ReliabilityRun(RcWorkload.Mix.MIXED, seed).lateReceives().runAndCheck();
    }
}
