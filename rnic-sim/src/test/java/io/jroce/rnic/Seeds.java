package io.jroce.rnic;

import java.util.stream.LongStream;

/**
 * The seeds a seeded test runs: 1..200 by default; {@code -Djroce.seeds=2000} for a long run,
 * {@code -Djroce.seedBase=5000} to start elsewhere, {@code -Djroce.seed=1234} to replay one seed.
 * Use as {@code @MethodSource("io.jroce.rnic.Seeds#seeds")}.
 */
final class Seeds {
    private Seeds() {
    }

    static LongStream seeds() {
        Long one = Configuration.seed();
        if (one != null) {
            return LongStream.of(one);
        }
        long base = Configuration.seedBase();
        return LongStream.range(base, base + Configuration.seeds());
    }
}
