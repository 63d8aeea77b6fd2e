package io.jroce.testcontainers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lab's plumbing that needs no Docker: the image tag, the skip-or-fail rule, link-local addresses. */
class RxeLabTest {
    @Test
    void imageTagIsTheOneTheBuildScriptGives() throws Exception {
        Path dir = RxeLab.imageDirectory();
        Process p = new ProcessBuilder("bash", dir.resolve("build.sh").toString(), "--tag").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "build.sh --tag did not end");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(RxeLab.IMAGE_REPOSITORY + ":" + RxeLab.imageTag(dir), out);
    }

    @Test
    void missingPrerequisiteSkipsWithOneLine() {
        ConditionEvaluationResult r = RxePeerCondition.evaluate(Optional.of("no Docker engine answers"), false);
        assertTrue(r.isDisabled());
        assertEquals(Optional.of("rxe peer unavailable: no Docker engine answers"), r.getReason());
    }

    @Test
    void missingPrerequisiteFailsOnCi() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> RxePeerCondition.evaluate(Optional.of("no Docker engine answers"), true));
        assertTrue(e.getMessage().startsWith("rxe peer unavailable: no Docker engine answers"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void nothingMissingEnables() {
        assertFalse(RxePeerCondition.evaluate(Optional.empty(), true).isDisabled());
    }

    @Test
    void linkLocalIsFe80WithTheModifiedEui64() {
        assertEquals("fe80::42:acff:fe11:2", RxeContainer.linkLocal("02:42:ac:11:00:02"));
        assertEquals("fe80::250:56ff:fe00:102", RxeContainer.linkLocal("00:50:56:00:01:02"));
    }
}
