package io.jroce.tools.demo;

/**
 * How one step went.
 *
 * @param requesterWc "OPCODE STATUS" of jroce0's completion, "-" if none
 * @param responderWc the same for jroce1
 * @param traffic     packets each RNIC sent and received during the step
 * @param elapsedNs   from the first post to the last check
 * @param result      "verified..." when it verified, else null
 * @param failure     what did not verify, else null
 */
record StepOutcome(String requesterWc, String responderWc, TrafficMeter.Delta traffic, long elapsedNs,
                   String result, StepFailedException failure) {
    boolean verified() {
        return failure == null;
    }
}
