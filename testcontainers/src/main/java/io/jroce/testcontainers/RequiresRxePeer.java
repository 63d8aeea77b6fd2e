package io.jroce.testcontainers;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test (or a test class) that starts rxe guests ({@link RxeContainer}, {@link RxePeer}). When the lab cannot run here (no
 * Docker engine, no image, ...; see {@link RxeLab#missingPrerequisite()}) the test is skipped with
 * one line that says what is missing; with the environment variable {@code CI=true} it fails
 * instead, so that CI never passes without having run the interop tests. Tagged {@code interop}
 * ({@code ./mvnw verify -DexcludedGroups=interop} leaves these tests out on purpose).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Tag("interop")
@ExtendWith(RxePeerCondition.class)
public @interface RequiresRxePeer {
}
