package io.jroce.tools.lesson;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code jroce lesson}: see {@link #USAGE}. */
public final class LessonCommand implements Command {
    static final String USAGE = """
        usage: jroce lesson [--mermaid | --markdown | --html FILE] [--pcap FILE] [NAME]

        Without NAME, lists the lessons. With NAME, runs that lesson: a short scripted scenario of two
        jroce devices on the simulated fabric, on virtual time with a fixed seed, PSNs and QPNs, so
        that every run prints the same. It prints the packets as explain's ladder with a line of why
        under each (which rule of the IBTA spec the sender follows), then what the QPs did besides
        the packets. docs/learn has every lesson as a page.

        options:
          --mermaid     print the ladder as a Mermaid sequenceDiagram instead
          --markdown    print the lesson's page of docs/learn instead
          --html FILE   write the lesson as one offline HTML page instead (as explain --html: the
                        ladder to time scale, a click shows a packet's why and every field)
          --pcap FILE   also write the lesson's capture to FILE (classic pcap, for Wireshark or
                        jroce explain)
        """;

    @Override
    public String name() {
        return "lesson";
    }

    @Override
    public String summary() {
        return "run a short lesson on the simulated fabric: a ladder of packets with why each was sent";
    }

    @Override
    public String usage() {
        return USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        boolean[] mermaid = {false};
        boolean[] markdown = {false};
        String[] pcap = {null};
        String[] html = {null};
        String[] name = {null};
        List<OptionSpec> table = List.of(
            flag(OptionSpec.NO_SHORT, "mermaid", () -> mermaid[0] = true),
            flag(OptionSpec.NO_SHORT, "markdown", () -> markdown[0] = true),
            value(OptionSpec.NO_SHORT, "pcap", (o, v) -> pcap[0] = v),
            value(OptionSpec.NO_SHORT, "html", (o, v) -> html[0] = v));
        new Getopt(table, (o, operand) -> {
            if (name[0] != null) {
                throw new UsageException("one lesson at a time, got '" + name[0] + "' and '" + operand + "'");
            }
            name[0] = operand;
        }).parse(args);
        if ((mermaid[0] ? 1 : 0) + (markdown[0] ? 1 : 0) + (html[0] != null ? 1 : 0) > 1) {
            throw new UsageException("one of --mermaid, --markdown and --html");
        }
        if (name[0] == null) {
            if (mermaid[0] || markdown[0] || pcap[0] != null || html[0] != null) {
                throw new UsageException("which lesson? name one (jroce lesson lists them)");
            }
            list(out);
            return ExitStatus.OK;
        }
        Optional<Lesson> lesson = Catalogue.find(name[0]);
        if (lesson.isEmpty()) {
            err.println("jroce lesson: no lesson '" + name[0] + "'; these are:");
            list(err);
            return ExitStatus.FAILED;
        }
        LessonRun run = LessonRun.of(lesson.get());
        if (pcap[0] != null) {
            try {
                Files.write(Path.of(pcap[0]), run.pcap());
            } catch (IOException e) {
                err.println("jroce lesson: cannot write " + pcap[0] + ": " + e.getMessage());
                return ExitStatus.FAILED;
            }
        }
        if (html[0] != null) {
            try {
                Files.writeString(Path.of(html[0]), run.explanation().html());
            } catch (IOException e) {
                err.println("jroce lesson: cannot write " + html[0] + ": " + e.getMessage());
                return ExitStatus.FAILED;
            }
            out.println("wrote " + html[0] + ": lesson " + lesson.get().name());
        } else if (mermaid[0]) {
            LessonPrinter.mermaid(run, out);
        } else if (markdown[0]) {
            out.print(LessonPrinter.markdown(run));
        } else {
            LessonPrinter.text(run, out);
        }
        return ExitStatus.OK;
    }

    private static void list(PrintStream out) {
        for (Lesson l : Catalogue.all()) {
            out.printf("  %-20s %s%n", l.name(), l.title());
        }
    }
}
