package io.jroce.tools.demo;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** RDMA WRITE into the responder's memory; with immediate data it also consumes a receive. */
final class WriteStep extends DemoStep {
    private final boolean withImm;

    WriteStep(int bytes, boolean withImm) {
        super(withImm ? WrOpcode.RDMA_WRITE_WITH_IMM : WrOpcode.RDMA_WRITE, bytes);
        this.withImm = withImm;
    }

    @Override
    String run(StepContext c) throws StepFailedException, InterruptedException {
        byte[] data = c.randomBytes(bytes());
        MemoryRegion target = c.responder().remoteMr();
        StepContext.write(c.requester().localMr(), 0, data);
        c.prepareTarget(target, data);
        int imm = c.randomInt();
        if (withImm) {
            c.postReceive();
        }
        c.postSend(c.sendRequest(opcode()).sgList(c.localSges(bytes()))
            .remoteAddress(target.address()).rkey(target.rkey()).immData(withImm ? imm : 0));

        c.awaitRequester(WcOpcode.RDMA_WRITE);
        if (withImm) {
            WorkCompletion recv = c.awaitResponder(WcOpcode.RECV_RDMA_WITH_IMM);
            StepContext.check(recv.byteLen() == bytes(), "receive completion byte_len %d, expected %d",
                recv.byteLen(), bytes());
            c.checkImmediate(recv, true, imm);
        }
        c.verifyTarget(c.responder().name() + "'s memory");
        return withImm ? String.format("verified, imm 0x%08x", imm) : "verified";
    }
}
