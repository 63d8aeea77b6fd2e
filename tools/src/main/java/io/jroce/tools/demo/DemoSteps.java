package io.jroce.tools.demo;

import io.jroce.verbs.Mtu;
import java.util.ArrayList;
import java.util.List;

/** The demo's program: every RC operation, at sizes from nothing to many packets. */
final class DemoSteps {
    private DemoSteps() {
    }

    /**
     * 0 bytes, 1 byte, one packet's worth, three packets and a bit (so that FIRST, MIDDLE and LAST
     * packets appear), and 1 MiB, for SEND, RDMA WRITE and RDMA READ; two sizes for the variants
     * with immediate data; and the three atomic outcomes.
     */
    static List<DemoStep> forMtu(Mtu pathMtu) {
        int multi = 3 * pathMtu.bytes() + 17;
        int[] sizes = {0, 1, 1000, multi, Endpoint.MAX_MESSAGE};
        int[] immSizes = {0, multi};
        List<DemoStep> steps = new ArrayList<>();
        for (int n : sizes) {
            steps.add(new SendStep(n, false));
        }
        for (int n : immSizes) {
            steps.add(new SendStep(n, true));
        }
        for (int n : sizes) {
            steps.add(new WriteStep(n, false));
        }
        for (int n : immSizes) {
            steps.add(new WriteStep(n, true));
        }
        for (int n : sizes) {
            steps.add(new ReadStep(n));
        }
        steps.add(new AtomicStep(AtomicStep.Kind.FETCH_AND_ADD));
        steps.add(new AtomicStep(AtomicStep.Kind.SWAP));
        steps.add(new AtomicStep(AtomicStep.Kind.NO_SWAP));
        return steps;
    }
}
