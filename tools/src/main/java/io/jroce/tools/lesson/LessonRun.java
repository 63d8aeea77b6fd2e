package io.jroce.tools.lesson;

import io.jroce.tools.explain.CaptureExplanation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a lesson's run left: the frames as captured, the QP events, the why of each frame and the
 * capture as pcap bytes.
 *
 * @param lesson the lesson
 * @param qpnA   A's QP number
 * @param qpnB   B's QP number
 * @param frames every frame sent, in order
 * @param events the QP events and completions, in time order
 * @param whys   the lines under each frame, in frame order
 * @param pcap   the capture
 */
record LessonRun(Lesson lesson, int qpnA, int qpnB, List<WireFrame> frames, List<QpEvent> events,
                 List<List<String>> whys, byte[] pcap) {
    /** Runs {@code lesson} on a fresh rig. */
    static LessonRun of(Lesson lesson) {
        try (LessonRig rig = new LessonRig(lesson.setup())) {
            lesson.script().run(rig);
            List<WireFrame> frames = rig.recorder.frames();
            List<QpEvent> events = List.copyOf(rig.events);
            return new LessonRun(lesson, rig.a.qp.qpNum(), rig.b.qp.qpNum(), frames, events,
                new WhyWriter(lesson.setup(), frames, events).write(), PcapBytes.of(frames));
        }
    }

    /** Explain's reading of the capture, with the why lines under their packets. */
    CaptureExplanation explanation() {
        CaptureExplanation e;
        try {
            e = CaptureExplanation.of("lesson " + lesson.name(), pcap, frames.stream().filter(f -> f.lost() != null)
                .map(WireFrame::number).collect(Collectors.toSet()));
        } catch (IOException x) {
            throw new UncheckedIOException(x); // the lesson wrote the capture itself
        }
        for (int i = 0; i < frames.size(); i++) {
            for (String line : whys.get(i)) {
                e.note(frames.get(i).number(), line);
            }
        }
        return e;
    }

    /** The lines for the QP events no packet shows, with their time since the first frame. */
    List<String> eventLines() {
        long start = frames.isEmpty() ? 0 : frames.get(0).timeNs();
        List<String> lines = new ArrayList<>();
        for (QpEvent e : events) {
            String text = EventText.of(e);
            if (text != null) {
                lines.add(String.format(Locale.ROOT, "%.6f s  %s", (e.timeNs() - start) / 1e9, text));
            }
        }
        return lines;
    }
}
