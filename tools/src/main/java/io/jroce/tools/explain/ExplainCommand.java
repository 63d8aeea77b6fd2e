package io.jroce.tools.explain;

import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** {@code jroce explain}: see {@link ExplainOptions#USAGE}. */
public final class ExplainCommand implements Command {
    @Override
    public String name() {
        return "explain";
    }

    @Override
    public String summary() {
        return "explain a RoCEv2 capture: ladder per connection, retransmissions, NAKs, latencies";
    }

    @Override
    public String usage() {
        return ExplainOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        ExplainOptions options = ExplainOptions.parse(args);
        Capture capture;
        EventLogReader.Result log = null;
        try {
            if (EventLogReader.isEventLog(options.file())) {
                log = EventLogReader.read(options.file());
                capture = log.capture();
            } else {
                capture = new CaptureReader(options.ports()).read(options.file());
            }
        } catch (CaptureException e) {
            err.println("jroce explain: " + e.getMessage());
            return ExitStatus.FAILED;
        }
        if (log != null && options.packet() != null) {
            err.println("jroce explain: --packet explains a capture's bytes field by field; an event log has "
                + "decoded fields only (capture with --pcap for that)");
            return ExitStatus.FAILED;
        }
        Map<Integer, NetworkFault> faults = log == null ? Map.of() : log.faults();
        Set<Integer> lost = NetworkFault.lost(faults);
        if (capture.packets().isEmpty()) {
            err.printf("jroce explain: %s: no RoCEv2 packets (UDP port %s) among its %d frames%s%n", capture.name(),
                ports(options), capture.frames(), skipped(capture));
            return ExitStatus.FAILED;
        }
        List<Connection> connections = new ConnectionFinder().find(capture.packets());
        if (options.packet() != null) {
            return explainPacket(options.packet(), capture, connections, out, err);
        }
        List<Connection> shown = connections.stream().filter(options::shows).toList();
        if (shown.isEmpty()) {
            err.printf("jroce explain: %s: no connection with QP 0x%06x%n", capture.name(), options.qp());
            return ExitStatus.FAILED;
        }
        HtmlPage page = options.html() == null ? null : new HtmlPage(capture.name(), capture.startNs());
        if (!options.mermaid() && page == null) {
            out.printf("%s: %d frames, %d RoCEv2 packets in %d connection%s%s%n%n", capture.name(), capture.frames(),
                capture.packets().size(), connections.size(), connections.size() == 1 ? "" : "s", skipped(capture));
        }
        LadderPrinter ladder = new LadderPrinter(out, capture.startNs(), faults);
        MermaidPrinter mermaid = new MermaidPrinter(out, faults);
        for (Connection c : shown) {
            // A packet lost on the way is drawn, but the analysis sees what arrived, as the receiver did.
            Report report = ConnectionAnalysis.analyseArrived(c, lost);
            for (Packet p : c.packets()) {
                NetworkFault fault = faults.get(p.frame());
                if (fault != null) {
                    fault.notes().forEach(n -> report.note(p, n));
                }
            }
            List<Packet> packets = c.packets().stream().filter(p -> options.shows(p, capture.startNs())).toList();
            if (packets.isEmpty()) {
                continue;
            }
            if (page != null) {
                page.add(report, packets, faults, log == null ? null : log.states());
            } else if (options.mermaid()) {
                mermaid.print(report, packets, capture.startNs());
                out.println();
            } else {
                ladder.print(report, packets);
            }
        }
        if (page != null) {
            try {
                Files.writeString(options.html(), page.render());
            } catch (IOException e) {
                err.println("jroce explain: cannot write " + options.html() + ": " + e.getMessage());
                return ExitStatus.FAILED;
            }
            out.printf("wrote %s: %d connection%s%n", options.html(), shown.size(), shown.size() == 1 ? "" : "s");
            return ExitStatus.OK;
        }
        if (!options.mermaid()) {
            opcodes(shown, out);
        }
        return ExitStatus.OK;
    }

    private static int explainPacket(String label, Capture capture, List<Connection> connections, PrintStream out,
                                     PrintStream err) {
        for (Connection c : connections) {
            for (Packet p : c.packets()) {
                if (p.label().equals(label) || (p.segment() == 1 && label.equals(Integer.toString(p.frame())))) {
                    new PacketExplainer(out, capture.startNs()).explain(p, c);
                    return ExitStatus.OK;
                }
            }
        }
        err.printf("jroce explain: %s: frame %s is not a RoCEv2 packet of this capture (%d frames)%n", capture.name(),
            label, capture.frames());
        return ExitStatus.FAILED;
    }

    /** Packets by opcode over the connections shown, in opcode order. */
    private static void opcodes(List<Connection> connections, PrintStream out) {
        Map<Integer, Integer> counts = new TreeMap<>();
        Map<Integer, OpcodeInfo> infos = new TreeMap<>();
        for (Connection c : connections) {
            for (Packet p : c.packets()) {
                counts.merge(p.bth().opcode(), 1, Integer::sum);
                infos.putIfAbsent(p.bth().opcode(), p.info());
            }
        }
        out.println("packets by opcode:");
        counts.forEach((op, n) -> out.printf("  0x%02x %-34s %8d%n", op, infos.get(op).name(), n));
    }

    private static String ports(ExplainOptions options) {
        return String.join(", ", options.ports().stream().map(String::valueOf).toList());
    }

    private static String skipped(Capture capture) {
        if (capture.skipped().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("; skipped " + capture.skippedTotal() + " frames (");
        String sep = "";
        for (Map.Entry<String, Integer> e : capture.skipped().entrySet()) {
            sb.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        return sb.append(')').toString();
    }
}
