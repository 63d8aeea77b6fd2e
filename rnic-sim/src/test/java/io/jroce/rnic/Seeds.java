package io.jroce.rnic;

import java.util.stream.LongStream;

/**
 * The seeds a seeded test runs: 1..200 by default; {@code -Djroce.seeds=2000} for a long run,
 * {@code -Djroce.seedBase=5000} to start elsewhere, {@code -Djroce.seed=1234} to replay one seed.
 * Use as {@code @MethodSource("io.jroce.rnic.Seeds#seeds")}.
 */
final class Seeds {
    static final int DEFAULT_COUNT = 200;

    private Seeds() {
    }

    static LongStream seeds() {
        String one = System.getProperty("jroce.seed");
        if (one != null && !one.isBlank()) {
            return LongStream.of(Long.decode(one.trim()));
        }
        int count = Integer.getInteger("jroce.seeds", DEFAULT_COUNT);
        long base = Long.getLong("jroce.seedBase", 1L);
        return LongStream.range(base, base + count);
    }
}
