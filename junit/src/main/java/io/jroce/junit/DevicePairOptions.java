package io.jroce.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a test's {@link DevicePair} is made; on the test method, else on its class, else the defaults
 * (fabric, a seed drawn at random and reported on failure, an ideal link).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface DevicePairOptions {
    /** Means "draw a seed": the seed used is printed when the test fails. */
    long RANDOM_SEED = Long.MIN_VALUE;

    /**
     * Where the devices talk.
     *
     * @return the transport
     */
    DeviceTransport transport() default DeviceTransport.FABRIC;

    /**
     * The fabric's seed: the faults below are drawn from it, so a seed replays a run exactly.
     *
     * @return the seed, or {@link #RANDOM_SEED}
     */
    long seed() default RANDOM_SEED;

    /**
     * The probability that a packet is lost (fabric only).
     *
     * @return 0 to 1
     */
    double loss() default 0;

    /**
     * The probability that a packet is delivered twice (fabric only).
     *
     * @return 0 to 1
     */
    double duplicate() default 0;

    /**
     * The probability that a packet is held back behind later ones, by at most 50 us (fabric only).
     *
     * @return 0 to 1
     */
    double reorder() default 0;
}
