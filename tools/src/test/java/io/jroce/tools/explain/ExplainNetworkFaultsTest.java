package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The terminal ladder of event logs whose sender's log marks a packet DELAYED or DUPLICATED by the
 * network (roce:fault_injected, docs/event-log.md): the pinned logs of FaultedEventLogsTest, a
 * 3000-byte SEND on the seeded fabric with its FIRST held back 500 ns, or its MIDDLE copied.
 */
class ExplainNetworkFaultsTest {
    @TempDir
    Path dir;

    private static Ladder explain(Path log) throws Exception {
        CommandRunner r = CommandRunner.run("explain", log.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        return new Ladder(r.out());
    }

    @Test
    void aDelayedPacketsArrowIsWavyAndItsNoteSaysWhatOvertookIt() throws Exception {
        Ladder ladder = explain(FaultedEventLogsTest.DELAYED_FIRST);
        assertEquals("|-- RC_SEND_FIRST psn 256 1024 B [delayed] ~~~~~~~~~~~~~~~~~~~~~~~~~~~~>|",
            ladder.entry("1").arrow());
        assertEquals(List.of("DELAYED on the way: jroce0 sent it, the network held it back (fault: hold PSN 0x100 500 ns "
            + "(seen 1, applied 1)); jroce1 received it 1.5 us after it was sent, overtaken by frames 2, 3"),
            ladder.entry("1").notes());
        assertEquals("|-- RC_SEND_MIDDLE psn 257 1024 B ------------------------------------->|", ladder.entry("2").arrow(),
            "a packet the network left alone keeps its plain arrow");
        assertEquals("|-- RC_SEND_FIRST psn 256 1024 B -------------------------------------->|", ladder.entry("5").arrow(),
            "the retransmission after B's NAK was not held back");
        assertFalse(ladder.text.contains("LOST"), "the delayed FIRST arrived: " + ladder.text);
    }

    @Test
    void aDuplicatedPacketsArrowHasTwoHeadsAndItsNoteSaysItArrivedTwice() throws Exception {
        Ladder ladder = explain(FaultedEventLogsTest.DUPLICATED_MIDDLE);
        assertEquals("|-- RC_SEND_MIDDLE psn 257 1024 B [duplicated] ----------------------->>|",
            ladder.entry("2").arrow());
        assertEquals(List.of("DUPLICATED on the way: jroce0 sent it once, the network delivered a copy too (fault: copy "
            + "PSN 0x101 (seen 1, applied 1)); jroce1 received it twice"), ladder.entry("2").notes());
        assertEquals(List.of("1", "2", "3", "4"), List.copyOf(ladder.entries.keySet()),
            "the copy is drawn on its original's arrow, not as a packet of its own");
    }

    /**
     * {@code --mermaid} tags the same arrows as the terminal ladder: a delayed packet with Mermaid's
     * open (async) arrowhead and {@code [delayed]}, a duplicated one with {@code [duplicated]}; the
     * others stay plain. ExplainHtmlBrowserTest renders both diagrams with Mermaid itself.
     */
    @Test
    void mermaidTagsTheDelayedAndTheDuplicatedArrow() throws Exception {
        List<String> delayed = mermaid(FaultedEventLogsTest.DELAYED_FIRST);
        assertEquals("    A-)B: 1 0.000000 s RC_SEND_FIRST psn 256 1024 B [delayed]", delayed.get(3));
        assertEquals("    A->>B: 2 0.000000 s RC_SEND_MIDDLE psn 257 1024 B", delayed.get(5),
            "a packet the network left alone keeps its plain arrow");
        assertTrue(delayed.contains("    A->>B: 5 0.000002 s RC_SEND_FIRST psn 256 1024 B"),
            "the retransmission was not held back: " + delayed);
        List<String> duplicated = mermaid(FaultedEventLogsTest.DUPLICATED_MIDDLE);
        assertEquals("    A->>B: 2 0.000000 s RC_SEND_MIDDLE psn 257 1024 B [duplicated]", duplicated.get(4));
        assertEquals("    A->>B: 1 0.000000 s RC_SEND_FIRST psn 256 1024 B", duplicated.get(3));
        assertEquals(1, duplicated.stream().filter(l -> l.contains("RC_SEND_MIDDLE psn 257")).count(),
            "the copy is tagged on its original's arrow, not drawn as a packet of its own");
    }

    static List<String> mermaid(Path log) throws Exception {
        CommandRunner r = CommandRunner.run("explain", "--mermaid", log.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        return r.out().lines().toList();
    }

    /** Without the receiver's log, the sender's marker alone: what the network did, and the rule. */
    @Test
    void theSendersLogAloneHasTheMarker() throws Exception {
        for (Path log : List.of(FaultedEventLogsTest.DELAYED_FIRST, FaultedEventLogsTest.DUPLICATED_MIDDLE)) {
            String both = Files.readString(log);
            Path aOnly = Files.writeString(dir.resolve("a-" + log.getFileName()),
                both.substring(0, both.indexOf("\u001e{\"format\"", 1)));
            Ladder ladder = explain(aOnly);
            if (log == FaultedEventLogsTest.DELAYED_FIRST) {
                assertEquals(List.of("DELAYED on the way: jroce0 sent it, the network held it back (fault: hold PSN "
                    + "0x100 500 ns (seen 1, applied 1))"), ladder.entry("1").notes());
                assertEquals("|-- RC_SEND_FIRST psn 256 1024 B [delayed] ~~~~~~~~~~~~~~~~~~~~~~~~~~~~>|",
                    ladder.entry("1").arrow());
            } else {
                assertEquals(List.of("DUPLICATED on the way: jroce0 sent it once, the network delivered a copy too "
                    + "(fault: copy PSN 0x101 (seen 1, applied 1))"), ladder.entry("2").notes());
            }
        }
    }
}
