package io.jroce.tools.demo;

import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** SEND (with or without immediate data) into a receive posted by the responder. */
final class SendStep extends DemoStep {
    private final boolean withImm;

    SendStep(int bytes, boolean withImm) {
        super(withImm ? WrOpcode.SEND_WITH_IMM : WrOpcode.SEND, bytes);
        this.withImm = withImm;
    }

    @Override
    String run(StepContext c) throws StepFailedException, InterruptedException {
        byte[] data = c.randomBytes(bytes());
        StepContext.write(c.requester().localMr(), 0, data);
        c.prepareTarget(c.responder().remoteMr(), data);
        int imm = c.randomInt();
        c.postReceive();
        c.postSend(c.sendRequest(opcode()).sgList(c.localSges(bytes())).immData(withImm ? imm : 0));

        c.awaitRequester(WcOpcode.SEND);
        WorkCompletion recv = c.awaitResponder(WcOpcode.RECV);
        StepContext.check(recv.byteLen() == bytes(), "receive completion byte_len %d, expected %d",
            recv.byteLen(), bytes());
        c.checkImmediate(recv, withImm, imm);
        c.verifyTarget(c.responder().name() + "'s receive buffer");
        return withImm ? String.format("verified, imm 0x%08x", imm) : "verified";
    }
}
