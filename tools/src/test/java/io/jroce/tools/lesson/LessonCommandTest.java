package io.jroce.tools.lesson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jroce lesson} as a user runs it: the catalogue, a lesson, --mermaid, --markdown, --pcap, mistakes. */
class LessonCommandTest {
    @TempDir
    Path dir;

    @Test
    void withoutANameItListsEveryLesson() throws Exception {
        CommandRunner r = CommandRunner.run("lesson");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        for (Lesson l : Catalogue.all()) {
            assertTrue(r.out().contains(String.format("  %-20s %s%n", l.name(), l.title())), r.out());
        }
        assertEquals(Catalogue.all().size(), r.out().lines().count());
    }

    @Test
    void aLessonPrintsItsProseAndItsLadder() throws Exception {
        CommandRunner r = CommandRunner.run("lesson", "first-message");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertTrue(r.out().startsWith("lesson first-message: a first SEND and its ACK\n"), r.out());
        assertTrue(r.out().contains("connection 1 (RC): A = 10.0.0.1 QP 0x"), r.out());
        assertTrue(r.out().contains("* why: ACK: B has executed every PSN up to 256"), r.out());
        assertTrue(r.out().contains("takeaway: "), r.out());
    }

    @Test
    void mermaidAndMarkdownPrintTheDiagramAndThePage() throws Exception {
        CommandRunner m = CommandRunner.run("lesson", "--mermaid", "lost-packet");
        assertEquals(ExitStatus.OK, m.status(), m.transcript());
        assertTrue(m.out().startsWith("sequenceDiagram\n"), m.out());
        assertTrue(m.out().contains("B-->>A: 5 0.000001 s RC_ACKNOWLEDGE psn 257 msn 0 NAK PSN sequence error"),
            m.out());
        CommandRunner d = CommandRunner.run("lesson", "--markdown", "lost-packet");
        assertEquals(LessonPrinter.markdown(LessonRun.of(Catalogue.find("lost-packet").orElseThrow())), d.out());
        assertTrue(d.out().contains("```mermaid\nsequenceDiagram\n"), d.out());
    }

    @Test
    void pcapWritesTheCaptureThatExplainReads() throws Exception {
        Path pcap = dir.resolve("lost-packet.pcap");
        CommandRunner r = CommandRunner.run("lesson", "--pcap", pcap.toString(), "lost-packet");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertArrayEquals(LessonRun.of(Catalogue.find("lost-packet").orElseThrow()).pcap(), Files.readAllBytes(pcap));
        CommandRunner e = CommandRunner.run("explain", pcap.toString());
        assertEquals(ExitStatus.OK, e.status(), e.transcript());
        assertTrue(e.out().contains(": 9 frames, 9 RoCEv2 packets in 1 connection"), e.out());
        // A capture at the senders holds the lost MIDDLE: explain sees its resend as a retransmission.
        assertTrue(e.out().contains("retransmission triggered by the NAK PSN sequence error of frame 5; first sent in "
            + "frame 2"), e.out());
        assertTrue(!e.out().contains(" bad ICRC, "), "every ICRC verifies: " + e.out());
    }

    /**
     * --html writes explain's page of the lesson's run: its packets, the lost one, and under each
     * packet the lesson's why (ExplainHtmlBrowserTest opens it in a browser).
     */
    @Test
    void htmlWritesThePageWithEveryWhy() throws Exception {
        Path html = dir.resolve("lost-packet.html");
        CommandRunner r = CommandRunner.run("lesson", "--html", html.toString(), "lost-packet");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertEquals("wrote " + html + ": lesson lost-packet\n", r.out());
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>"), page.substring(0, Math.min(80, page.length())));
        LessonRun run = LessonRun.of(Catalogue.find("lost-packet").orElseThrow());
        for (List<String> whys : run.whys()) {
            for (String why : whys) {
                // as the page's JSON writes it: Jackson's escapes, and '<' escaped for the script element
                String json = new ObjectMapper().writeValueAsString(why);
                json = json.substring(1, json.length() - 1).replace("<", "\\u003c");
                assertTrue(page.contains(json), "the why '" + why + "' is in the page");
            }
        }
    }

    @Test
    void mistakesAreUsageErrors() throws Exception {
        CommandRunner unknown = CommandRunner.run("lesson", "no-such-lesson");
        assertEquals(ExitStatus.FAILED, unknown.status());
        assertTrue(unknown.err().contains("no lesson 'no-such-lesson'; these are:"), unknown.err());
        assertEquals(ExitStatus.USAGE, CommandRunner.run("lesson", "--mermaid").status());
        assertEquals(ExitStatus.USAGE, CommandRunner.run("lesson", "--mermaid", "--markdown", "rnr").status());
        assertEquals(ExitStatus.USAGE, CommandRunner.run("lesson", "rnr", "psn-wrap").status());
        assertEquals(ExitStatus.USAGE, CommandRunner.run("lesson", "--html", dir.resolve("x.html").toString(),
            "--mermaid", "rnr").status());
        assertEquals(ExitStatus.USAGE, CommandRunner.run("lesson", "--html", dir.resolve("x.html").toString()).status());
    }
}
