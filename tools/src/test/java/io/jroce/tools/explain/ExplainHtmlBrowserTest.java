package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * {@code jroce explain --html} in a real browser: Debian's chromium, headless, driven by Selenium
 * through Debian's chromedriver (never Selenium Manager, which would reach the network). The page
 * loads without console errors, fits its ladder into the left pane (at 1400 px, beside a vertical
 * scrollbar, after the window narrows), draws one arrow per packet, a cross for the lost one, a
 * delayed and a duplicated packet as such, an event log's state columns beside the lanes, shows a
 * packet's notes and fields when clicked, steps and searches; screenshots go to
 * target/explain-screenshots/. Without the browser the tests are
 * skipped, saying so; under CI=true they fail instead (.ci/run installs chromium and
 * chromium-driver).
 */
class ExplainHtmlBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path LOST_MIDDLE = Path.of("../rnic-sim/src/test/resources/event-log/lost-middle.jsonseq");
    private static final Path RXE_CAPTURE = Path.of("../stack/src/test/resources/captures/rxe-rc_pingpong_v4.pcap");
    private static final Path SCREENSHOTS = Path.of("target/explain-screenshots");

    private static ChromeDriver browser;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrowser() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String missing = "no " + CHROMIUM + " and " + CHROMEDRIVER + " (apt-get install chromium chromium-driver)";
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(missing + ", and CI=true allows no skipped check");
        }
        Assumptions.assumeTrue(present, missing);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900");
        if ("root".equals(System.getProperty("user.name"))) {
            options.addArguments("--no-sandbox"); // chromium refuses to run as root with its sandbox
        }
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private Path page(Path input, String name) throws Exception {
        Path html = dir.resolve(name + ".html");
        CommandRunner r = CommandRunner.run("explain", "--html", html.toString(), input.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertTrue(r.out().startsWith("wrote " + html), r.transcript());
        return html;
    }

    private void open(Path html) {
        browser.get(html.toUri().toString());
        browser.manage().logs().get(LogType.BROWSER); // what an earlier page logged
    }

    private void noConsoleErrors(String page) {
        List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()).toList();
        assertEquals(List.of(), severe, page + ": console errors");
    }

    private void screenshot(String name) throws Exception {
        Files.createDirectories(SCREENSHOTS);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aLossyRunShowsTheCrossAndEachPacketOnClick() throws Exception {
        open(page(LOST_MIDDLE, "lost-middle"));
        fitsItsPane(1400);
        List<WebElement> packets = browser.findElements(By.cssSelector("g.pkt"));
        assertEquals(7, packets.size(), "one arrow per packet of the two logs");
        assertEquals(2, browser.findElements(By.cssSelector("g.pkt[data-frame='2'] line.lost-cross")).size(),
            "the lost MIDDLE is crossed out");
        assertEquals(0, browser.findElements(By.cssSelector("g.pkt[data-frame='5'] line.lost-cross")).size());
        browser.findElement(By.cssSelector("g.pkt[data-frame='2'] text")).click();
        assertEquals("frame 2: RC_SEND_MIDDLE psn 257 1024 B", browser.findElement(By.id("selTitle")).getText());
        assertTrue(browser.findElement(By.id("selNotes")).getText().contains("LOST on the way"),
            browser.findElement(By.id("selNotes")).getText());
        browser.findElement(By.id("next")).click();
        assertTrue(browser.findElement(By.id("selTitle")).getText().startsWith("frame 3: RC_SEND_LAST"));
        browser.findElement(By.cssSelector("g.pkt[data-frame='5'] text")).click();
        assertEquals(List.of(
            "jroce0 QP 0x000011: RTS; requester: next PSN 259, oldest unacknowledged 257; "
                + "ACK timer: set at 0.000002 s for 67.109 ms; retries left: 6",
            "jroce1 QP 0x000011: RTS; responder: expects PSN 257, MSN 0"),
            browser.findElements(By.cssSelector("#selState .qpstate")).stream().map(WebElement::getText).toList(),
            "the MIDDLE sent again: A's NAKed PSNs, timer and retries; B still waiting for 257");
        browser.findElement(By.id("search")).sendKeys("ACKNOWLEDGE");
        assertEquals("2 packets", browser.findElement(By.id("hits")).getText());
        assertEquals(2, browser.findElements(By.cssSelector("g.pkt.hit")).size());
        assertTrue(browser.findElement(By.id("analysis")).getText().contains("NAK PSN sequence error"));
        noConsoleErrors("lost-middle");
        screenshot("lost-middle");
    }

    /**
     * The state columns as chromium draws them, in a ladder that fits its pane: A's QP left of its
     * lane, B's right of its lane, a cell only on the rows where the QP's state changed, with exactly
     * the words the logs give, and a last row for what changed after the last packet; clicking a
     * cell selects its packet, the last row's shows the QPs as the logs end.
     */
    @Test
    void theStateColumnsShowWhatChangedBesideEachLane() throws Exception {
        open(page(LOST_MIDDLE, "lost-middle-columns"));
        fitsItsPane(1400);
        List<WebElement> lanes = browser.findElements(By.cssSelector("svg line.col"));
        int laneA = lanes.get(0).getRect().getX();
        int laneB = lanes.get(1).getRect().getX();
        Map<String, Map<String, List<String>>> columns = new java.util.LinkedHashMap<>();
        for (WebElement column : browser.findElements(By.cssSelector("g.statecol"))) {
            boolean a = "0".equals(column.getDomAttribute("data-end"));
            Map<String, List<String>> cells = new java.util.LinkedHashMap<>();
            for (WebElement cell : column.findElements(By.cssSelector("g.qpcell"))) {
                String row = cell.getDomAttribute("data-frame") != null ? cell.getDomAttribute("data-frame")
                    : cell.getDomAttribute("data-row");
                cells.put(row,
                    cell.findElements(By.tagName("text")).stream().map(WebElement::getText).toList());
                int left = cell.getRect().getX();
                int right = left + cell.getRect().getWidth();
                assertTrue(a ? right < laneA : left > laneB, "cell of " + row
                    + " at " + left + ".." + right + " beside its lane (A at " + laneA + ", B at " + laneB + ")");
            }
            columns.put(column.getDomAttribute("data-qp") + (a ? " (A)" : " (B)"), cells);
        }
        assertEquals(Map.of(
            "jroce0 QP 0x000011 (A)", Map.of(
                "1", List.of("RTS", "ACK timer 67.109 ms"),
                "5", List.of("next 259 / unacked 257", "ACK timer 67.109 ms", "retries left 6"),
                "after frame 7", List.of("next 259 / unacked 259")),
            "jroce1 QP 0x000011 (B)", Map.of(
                "1", List.of("RTS"),
                "4", List.of("expects 257 / MSN 0"),
                "7", List.of("expects 259 / MSN 1"))), columns);
        browser.findElement(By.cssSelector("g.statecol[data-end='0'] g.qpcell[data-frame='5'] text")).click();
        assertEquals("frame 5: RC_SEND_MIDDLE psn 257 1024 B", browser.findElement(By.id("selTitle")).getText());
        browser.findElement(By.cssSelector("g.statecol[data-end='0'] g.qpcell[data-row='after frame 7'] text")).click();
        assertEquals("after frame 7: the QPs as the event logs end", browser.findElement(By.id("selTitle")).getText());
        assertEquals(List.of(
            "jroce0 QP 0x000011: RTS; requester: next PSN 259, oldest unacknowledged 259; "
                + "ACK timer: set at 0.000002 s for 67.109 ms; retries left: 6",
            "jroce1 QP 0x000011: RTS; responder: expects PSN 259, MSN 1"),
            browser.findElements(By.cssSelector("#selState .qpstate")).stream().map(WebElement::getText).toList(),
            "the last ACK has acknowledged everything A sent");
        noConsoleErrors("lost-middle-columns");
        screenshot("lost-middle-columns");
    }

    /**
     * In a window too short for the ladder the pane scrolls down, and its scrollbar takes width:
     * the ladder still fits beside it.
     */
    @Test
    void theLadderFitsItsPaneBesideAVerticalScrollbar() throws Exception {
        Dimension size = browser.manage().window().getSize();
        try {
            browser.manage().window().setSize(new Dimension(1400, 500));
            open(page(LOST_MIDDLE, "lost-middle-short"));
            assertEquals(true, browser.executeScript("const l = document.getElementById('left');"
                + "return l.scrollHeight > l.clientHeight;"), "the pane scrolls down");
            fitsItsPane(1400);
            screenshot("lost-middle-short");
        } finally {
            browser.manage().window().setSize(size);
        }
    }

    /**
     * A window made narrower lays the ladder out again to the narrower pane, keeping the packet
     * selected and the search's marks. The resize event is sent from the test, so that nothing
     * waits for the browser's own.
     */
    @Test
    void aNarrowerWindowLaysTheLadderOutAgain() throws Exception {
        Dimension size = browser.manage().window().getSize();
        try {
            open(page(LOST_MIDDLE, "lost-middle-narrow"));
            browser.findElement(By.cssSelector("g.pkt[data-frame='5'] text")).click();
            browser.findElement(By.id("search")).sendKeys("ACKNOWLEDGE");
            browser.findElement(By.cssSelector("g.pkt[data-frame='5'] text")).click();
            browser.manage().window().setSize(new Dimension(1250, size.getHeight()));
            browser.executeScript("window.dispatchEvent(new Event('resize'));");
            fitsItsPane(1250);
            assertEquals(List.of("5"), browser.findElements(By.cssSelector("g.pkt.sel")).stream()
                .map(e -> e.getDomAttribute("data-frame")).toList(), "the selection survives");
            assertEquals(List.of("4", "7"), browser.findElements(By.cssSelector("g.pkt.hit")).stream()
                .map(e -> e.getDomAttribute("data-frame")).toList(), "so do the search's marks");
            assertEquals(7, browser.findElements(By.cssSelector("g.pkt")).size(), "each packet drawn once");
            noConsoleErrors("lost-middle-narrow");
            screenshot("lost-middle-narrow");
        } finally {
            browser.manage().window().setSize(size);
        }
    }

    /**
     * What the network did besides losing a packet (FaultedEventLogsTest's pinned logs): a delayed
     * packet's arrow, tagged, ends where it arrived, below the arrows that overtook it and B's NAK
     * sent before it came; a duplicated packet's arrow has its copy drawn under it, tagged; each
     * packet's note says so on a click.
     */
    @Test
    void aDelayedAndADuplicatedPacketAreDrawnAsTheNetworkHandledThem() throws Exception {
        open(page(FaultedEventLogsTest.DELAYED_FIRST, "delayed-first"));
        fitsItsPane(1400);
        WebElement delayed = browser.findElement(By.cssSelector("g.pkt.delayed"));
        assertEquals("1", delayed.getDomAttribute("data-frame"));
        assertEquals("1  0.000000 s  RC_SEND_FIRST psn 256 1024 B [delayed]",
            label(delayed));
        double arrives = y(delayed, "y2");
        assertTrue(arrives > y(arrow("3"), "y2") && arrives > y(arrow("4"), "y1") && arrives < y(arrow("5"), "y1"),
            "the FIRST arrives (at y " + arrives + ") after MIDDLE and LAST, after B sent its NAK, before A resends");
        assertEquals(1, browser.findElements(By.cssSelector("g.pkt.delayed")).size(), "only the FIRST was held back");
        delayed.findElement(By.tagName("text")).click();
        assertTrue(browser.findElement(By.id("selNotes")).getText().contains("DELAYED on the way: jroce0 sent it, the "
            + "network held it back (fault: hold PSN 0x100 500 ns (seen 1, applied 1))"),
            browser.findElement(By.id("selNotes")).getText());
        noConsoleErrors("delayed-first");
        screenshot("delayed-first");

        open(page(FaultedEventLogsTest.DUPLICATED_MIDDLE, "duplicated-middle"));
        fitsItsPane(1400);
        WebElement duplicated = browser.findElement(By.cssSelector("g.pkt.duplicated"));
        assertEquals("2", duplicated.getDomAttribute("data-frame"));
        assertEquals("2  0.000000 s  RC_SEND_MIDDLE psn 257 1024 B [duplicated]",
            label(duplicated));
        assertEquals(1, duplicated.findElements(By.cssSelector("line.copy")).size(), "the copy under the original");
        assertEquals(0, browser.findElements(By.cssSelector("g.pkt:not(.duplicated) line.copy")).size());
        duplicated.findElement(By.tagName("text")).click();
        assertTrue(browser.findElement(By.id("selNotes")).getText().contains("DUPLICATED on the way: jroce0 sent it "
            + "once, the network delivered a copy too (fault: copy PSN 0x101 (seen 1, applied 1)); jroce1 received it "
            + "twice"), browser.findElement(By.id("selNotes")).getText());
        noConsoleErrors("duplicated-middle");
        screenshot("duplicated-middle");
    }

    /** A packet's label, its lines (wrapped at spaces when the lane is too narrow) joined again. */
    private static String label(WebElement packet) {
        return String.join(" ", packet.findElements(By.tagName("text")).stream()
            .map(t -> t.getDomProperty("textContent")).toList());
    }

    /** The shaft of packet {@code frame}'s arrow: the first line of its group. */
    private static WebElement arrow(String frame) {
        return browser.findElement(By.cssSelector("g.pkt[data-frame='" + frame + "'] line"));
    }

    /** A coordinate of the arrow's shaft of {@code packet}, the first line of its group. */
    private static double y(WebElement packet, String attribute) {
        WebElement line = packet.getTagName().equals("line") ? packet : packet.findElement(By.tagName("line"));
        return Double.parseDouble(line.getDomAttribute(attribute));
    }

    /**
     * The ladder, its state columns included, fits the left pane of a window {@code windowWidth} px
     * wide: the pane does not scroll sideways, so that no click scrolls a column out of sight.
     */
    private void fitsItsPane(long windowWidth) {
        assertEquals(windowWidth, browser.executeScript("return window.innerWidth;"), "the window the layout is made for");
        assertEquals(List.of(), browser.executeScript("const l = document.getElementById('left');"
            + "return l.scrollWidth > l.clientWidth ? [l.scrollWidth, l.clientWidth] : [];"),
            "the left pane's content width and its visible width: the ladder overflows it sideways");
        // Within the pane's padding too, which scrollWidth forgives: each ladder's right edge, and where the pane's
        // content ends (before its padding and any scrollbar).
        assertEquals(List.of(), browser.executeScript("const l = document.getElementById('left');"
            + "const end = l.getBoundingClientRect().left + l.clientLeft + l.clientWidth"
            + " - parseFloat(getComputedStyle(l).paddingRight);"
            + "return [...document.querySelectorAll('#ladders svg')].map(s => s.getBoundingClientRect().right)"
            + ".filter(r => r > end + 0.5).map(r => r + ' > ' + end);"), "ladders wider than the pane's content");
    }

    /**
     * Mermaid itself (vendored: src/test/resources/mermaid) renders every diagram explain and the
     * lessons print: one that Mermaid cannot parse fails here, not in a reader's GitHub issue.
     */
    @Test
    void mermaidRendersWhatExplainAndTheLessonsWrite() throws Exception {
        Path js = Path.of("src/test/resources/mermaid/mermaid.min.js").toAbsolutePath();
        Path host = Files.writeString(dir.resolve("mermaid.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
            + "<script src=\"" + js.toUri() + "\"></script></head><body></body></html>");
        open(host);
        List<String> diagrams = new java.util.ArrayList<>();
        diagrams.add(CommandRunner.run("explain", "--mermaid", LOST_MIDDLE.toString()).out());
        // The open arrowhead of a delayed packet and the [duplicated] tag.
        diagrams.add(CommandRunner.run("explain", "--mermaid", FaultedEventLogsTest.DELAYED_FIRST.toString()).out());
        diagrams.add(CommandRunner.run("explain", "--mermaid", FaultedEventLogsTest.DUPLICATED_MIDDLE.toString()).out());
        diagrams.add(CommandRunner.run("explain", "--mermaid", "--packets", "1-40", RXE_CAPTURE.toString()).out());
        for (String line : CommandRunner.run("lesson").out().split("\n")) {
            if (!line.isBlank()) {
                String lesson = line.trim().split("\\s+")[0];
                diagrams.add(CommandRunner.run("lesson", lesson, "--mermaid").out());
            }
        }
        assertTrue(diagrams.size() >= 12, diagrams.size() + " diagrams");
        browser.manage().timeouts().scriptTimeout(java.time.Duration.ofSeconds(60));
        for (String text : diagrams) {
            for (String diagram : text.split("(?m)^(?=sequenceDiagram$)")) {
                if (diagram.isBlank()) {
                    continue;
                }
                Object result = browser.executeAsyncScript(
                    "const done = arguments[arguments.length - 1];"
                    + "mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});"
                    + "mermaid.render('d' + Math.floor(Math.random() * 1e9), arguments[0])"
                    + ".then(r => done('svg ' + r.svg.length)).catch(e => done('error ' + e));", diagram.strip());
                assertTrue(String.valueOf(result).startsWith("svg "), result + "\n" + diagram);
            }
        }
        for (String tag : List.of("[delayed]", "[duplicated]")) {
            String diagram = diagrams.stream().filter(d -> d.contains(tag)).findFirst().orElseThrow().strip();
            Object svg = browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "mermaid.render('t' + Math.floor(Math.random() * 1e9), arguments[0])"
                + ".then(r => done(r.svg)).catch(e => done('error ' + e));", diagram);
            assertTrue(String.valueOf(svg).contains(">" + diagram.lines().filter(l -> l.contains(tag)).findFirst()
                .orElseThrow().replaceFirst("^.*?: ", "") + "<"), "Mermaid draws the tagged label: " + svg);
        }
        noConsoleErrors("mermaid");
        Object broken = browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
            + "mermaid.render('bad', 'sequenceDiagram\\n    A->>: no receiver').then(r => done('svg')).catch(e => done('error'));");
        assertEquals("error", broken, "the check can fail: Mermaid refuses a broken diagram");
    }

    /** A lesson's page (jroce lesson --html): its packets, the lost one crossed, a packet's why on a click. */
    @Test
    void aLessonPageShowsTheLossAndEachPacketsWhy() throws Exception {
        Path html = dir.resolve("lesson-lost-packet.html");
        CommandRunner r = CommandRunner.run("lesson", "--html", html.toString(), "lost-packet");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        open(html);
        fitsItsPane(1400);
        assertEquals(9, browser.findElements(By.cssSelector("g.pkt")).size(), "the lesson's nine frames");
        assertEquals(2, browser.findElements(By.cssSelector("g.pkt[data-frame='2'] line.lost-cross")).size(),
            "the lost MIDDLE is crossed out");
        browser.findElement(By.cssSelector("g.pkt[data-frame='5'] text")).click();
        assertTrue(browser.findElement(By.id("selTitle")).getText().startsWith("frame 5: RC_ACKNOWLEDGE psn 257"),
            browser.findElement(By.id("selTitle")).getText());
        String notes = browser.findElement(By.id("selNotes")).getText();
        assertTrue(notes.contains("why:"), notes);
        assertTrue(browser.findElement(By.id("selFields")).getText().contains("AETH"),
            browser.findElement(By.id("selFields")).getText());
        noConsoleErrors("lesson-lost-packet");
        screenshot("lesson-lost-packet");
    }

    @Test
    void anRxeCaptureDrawsEveryPacketWithItsFields() throws Exception {
        CommandRunner text = CommandRunner.run("explain", RXE_CAPTURE.toString());
        Matcher m = Pattern.compile("(\\d+) RoCEv2 packets").matcher(text.out());
        assertTrue(m.find(), text.transcript());
        open(page(RXE_CAPTURE, "rxe-rc_pingpong_v4"));
        fitsItsPane(1400);
        assertEquals(Integer.parseInt(m.group(1)), browser.findElements(By.cssSelector("g.pkt")).size());
        browser.findElement(By.cssSelector("g.pkt[data-frame] text")).click();
        String fields = browser.findElement(By.id("selFields")).getText();
        assertTrue(fields.contains("BTH") && fields.contains("ICRC"), fields);
        noConsoleErrors("rxe-rc_pingpong_v4");
        screenshot("rxe-rc_pingpong_v4");
    }
}
