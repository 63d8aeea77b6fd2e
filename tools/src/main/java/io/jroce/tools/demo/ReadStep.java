package io.jroce.tools.demo;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** RDMA READ of the responder's memory into the requester's local buffer. */
final class ReadStep extends DemoStep {
    ReadStep(int bytes) {
        super(WrOpcode.RDMA_READ, bytes);
    }

    @Override
    String run(StepContext c) throws StepFailedException, InterruptedException {
        byte[] data = c.randomBytes(bytes());
        MemoryRegion source = c.responder().remoteMr();
        StepContext.write(source, 0, data);
        c.prepareTarget(c.requester().localMr(), data);
        c.postSend(c.sendRequest(opcode()).sgList(c.localSges(bytes()))
            .remoteAddress(source.address()).rkey(source.rkey()));

        WorkCompletion wc = c.awaitRequester(WcOpcode.RDMA_READ);
        StepContext.check(wc.byteLen() == bytes(), "READ completion byte_len %d, expected %d", wc.byteLen(), bytes());
        c.verifyTarget(c.requester().name() + "'s read buffer");
        return "verified";
    }
}
