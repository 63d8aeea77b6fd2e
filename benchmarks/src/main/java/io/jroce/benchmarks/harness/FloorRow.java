package io.jroce.benchmarks.harness;

/**
 * One line of the floor table: {@code figure} of run {@code value} (a jroce run) against the same
 * figure of run {@code reference} (the floor, or jroce on one QP), as ratio value / reference.
 *
 * @param target       the goal for the ratio, or null
 * @param spreadTarget the goal for jroce's spread / the reference's spread, or null
 */
record FloorRow(String what, Figure figure, String value, String reference, Target target, Target spreadTarget) {
    /** jroce's runs may spread (max / min) at most 1.5x as far as the floor's in the same sitting. */
    static final Target SPREAD = Target.atMost(1.5);

    /** jroce against the floor, with the spread goal. */
    static FloorRow againstFloor(String what, Figure figure, Target target) {
        return new FloorRow(what, figure, "jroce", FloorRun.FLOOR, target, SPREAD);
    }
}
