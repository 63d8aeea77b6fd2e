package io.jroce.testcontainers;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The condition behind {@link RequiresRxePeer}: enabled when {@link RxeLab#missingPrerequisite()}
 * finds nothing missing; otherwise disabled with that one line, or, under {@code CI=true}, an
 * {@link IllegalStateException} that JUnit reports as the test's failure.
 */
public final class RxePeerCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        ConditionEvaluationResult result = evaluate(RxeLab.missingPrerequisite(), RxeLab.onCi());
        if (result.isDisabled()) {
            tellConsole("SKIPPED " + context.getDisplayName() + ": " + result.getReason().orElse(""));
        }
        return result;
    }

    /** Enabled, disabled with the one line, or (on CI) that line as an exception. */
    static ConditionEvaluationResult evaluate(Optional<String> missing, boolean onCi) {
        if (missing.isEmpty()) {
            return ConditionEvaluationResult.enabled("rxe peers can run");
        }
        String line = "rxe peer unavailable: " + missing.get();
        if (onCi) {
            throw new IllegalStateException(line + " (CI=true: the interop tests must run, not be skipped)");
        }
        return ConditionEvaluationResult.disabled(line);
    }

    /**
     * Surefire's console shows only a count of skipped tests and sends what a test prints to a
     * file: the reason goes to the JVM's own standard error, which reaches the build's console.
     */
    private static void tellConsole(String line) {
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        err.println(line);
    }
}
