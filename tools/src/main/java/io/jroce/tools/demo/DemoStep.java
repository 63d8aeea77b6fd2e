package io.jroce.tools.demo;

import io.jroce.verbs.WrOpcode;

/** One line of the demo: one work request from jroce0 to jroce1, its completions and its checks. */
abstract class DemoStep {
    private final WrOpcode opcode;
    private final int bytes;

    DemoStep(WrOpcode opcode, int bytes) {
        this.opcode = opcode;
        this.bytes = bytes;
    }

    WrOpcode opcode() {
        return opcode;
    }

    /** Message length. */
    int bytes() {
        return bytes;
    }

    /** True when the data travels from the responder to the requester (RDMA READ and atomics). */
    boolean dataFlowsBack() {
        return opcode == WrOpcode.RDMA_READ || opcode.isAtomic();
    }

    /**
     * Posts, waits for the completions and checks everything that arrived.
     *
     * @return "verified", possibly followed by what was checked besides the bytes
     * @throws StepFailedException what did not verify
     */
    abstract String run(StepContext c) throws StepFailedException, InterruptedException;
}
