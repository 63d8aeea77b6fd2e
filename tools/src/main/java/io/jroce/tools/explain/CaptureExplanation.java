package io.jroce.tools.explain;

import io.jroce.stack.wire.RoceV2;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Explain's reading of a capture held in memory, for other tools ({@code jroce lesson}): the same
 * decoding, connections and analysers as {@code jroce explain}, and the same ladder and Mermaid
 * output, with notes of the caller's own added under the packets they are about.
 */
public final class CaptureExplanation {
    private final Capture capture;
    private final List<Report> reports = new ArrayList<>();
    /** Each connection with every packet, for the ladder (a report's connection lacks the unseen ones). */
    private final List<Connection> connections = new ArrayList<>();
    /** Frames lost after the capture point: drawn crossed, left out of the analysis. */
    private final Set<Integer> unseen;

    private CaptureExplanation(Capture capture, Set<Integer> unseen) {
        this.capture = capture;
        this.unseen = Set.copyOf(unseen);
        for (Connection c : new ConnectionFinder().find(capture.packets())) {
            connections.add(c);
            reports.add(ConnectionAnalysis.analyseArrived(c, unseen));
        }
    }

    /**
     * Decodes and analyses a classic pcap capture.
     *
     * @param name what to call the capture
     * @param pcap the capture's bytes
     * @return the explanation
     * @throws IOException the bytes are not a pcap capture
     */
    public static CaptureExplanation of(String name, byte[] pcap) throws IOException {
        return of(name, pcap, Set.of());
    }

    /**
     * As {@link #of(String, byte[])}, for a capture taken where packets leave their sender, of a run
     * whose losses are known: the frames {@code unseen} are drawn in the ladder but left out of the
     * analysis, which so sees what arrived, as at the receivers.
     *
     * @param name   what to call the capture
     * @param pcap   the capture's bytes
     * @param unseen frame numbers (from 1) of packets lost after the capture point
     * @return the explanation
     * @throws IOException the bytes are not a pcap capture
     */
    public static CaptureExplanation of(String name, byte[] pcap, Set<Integer> unseen) throws IOException {
        try {
            return new CaptureExplanation(new CaptureReader(Set.of(RoceV2.UDP_PORT)).read(name, pcap), unseen);
        } catch (CaptureException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * The RoCEv2 packets read.
     *
     * @return how many
     */
    public int packets() {
        return capture.packets().size();
    }

    /**
     * Adds a note under the packet of capture frame {@code frame}, after the analysers' notes.
     *
     * @param frame the frame number, from 1
     * @param text  the note
     * @throws IllegalArgumentException no RoCEv2 packet has that frame number
     */
    public void note(int frame, String text) {
        for (int i = 0; i < reports.size(); i++) {
            for (Packet p : connections.get(i).packets()) {
                if (p.frame() == frame) {
                    reports.get(i).note(p, text);
                    return;
                }
            }
        }
        throw new IllegalArgumentException("no RoCEv2 packet in frame " + frame);
    }

    /**
     * Prints every connection's ladder, findings and summary, as {@code jroce explain} does.
     *
     * @param out where to print
     */
    public void printLadder(PrintStream out) {
        LadderPrinter ladder = new LadderPrinter(out, capture.startNs());
        for (int i = 0; i < reports.size(); i++) {
            ladder.print(reports.get(i), connections.get(i).packets());
        }
    }

    /**
     * The page {@code jroce explain --html} writes, of every connection: ladders to time scale, a
     * cross for each packet lost on the way, each packet's notes (the caller's included) and fields
     * on a click.
     *
     * @return the self-contained HTML page
     */
    public String html() {
        HtmlPage page = new HtmlPage(capture.name(), capture.startNs());
        for (int i = 0; i < reports.size(); i++) {
            page.add(reports.get(i), connections.get(i).packets(), NetworkFault.lost(unseen), null);
        }
        return page.render();
    }

    /**
     * Prints a Mermaid sequence diagram per connection, as {@code jroce explain --mermaid} does.
     *
     * @param out where to print
     */
    public void printMermaid(PrintStream out) {
        MermaidPrinter mermaid = new MermaidPrinter(out);
        for (int i = 0; i < reports.size(); i++) {
            if (i > 0) {
                out.println();
            }
            mermaid.print(reports.get(i), connections.get(i).packets(), capture.startNs());
        }
    }
}
