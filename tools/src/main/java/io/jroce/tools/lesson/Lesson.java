package io.jroce.tools.lesson;

/**
 * One lesson: a scripted scenario on the simulated fabric and the prose around it.
 *
 * @param name     what {@code jroce lesson NAME} calls it
 * @param title    one line for the catalogue
 * @param intro    what the scenario does and what to look for, in prose
 * @param takeaway what the packets showed, in prose
 * @param setup    how the two QPs are connected
 * @param script   the work requests and faults, run on the lesson's rig
 */
record Lesson(String name, String title, String intro, String takeaway, Setup setup, Script script) {
    /** What a lesson does once its QPs are connected. */
    @FunctionalInterface
    interface Script {
        void run(LessonRig rig);
    }
}
