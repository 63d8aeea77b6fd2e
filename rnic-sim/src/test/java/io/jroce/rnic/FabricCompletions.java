package io.jroce.rnic;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.WorkCompletion;

/**
 * Waits for completions on the simulated fabric, which runs on the test's thread: the fabric is run
 * (in virtual time, never sleeping) until the completions are there, so no test depends on timing.
 */
final class FabricCompletions {
    private FabricCompletions() {
    }

    /**
     * Runs {@code fabric} until {@code n} completions are on {@code cq} and returns them; fails, with
     * {@code diagnostics}, when they are not there within {@code maxNs} of virtual time.
     */
    static List<WorkCompletion> await(SimulatedFabric fabric, CompletionQueue cq, int n, long maxNs,
                                      Supplier<String> diagnostics) {
        List<WorkCompletion> out = new ArrayList<>();
        boolean ok = fabric.runUntil(() -> {
            WorkCompletion wc = new WorkCompletion();
            while (out.size() < n && cq.poll(wc)) {
                out.add(wc);
                wc = new WorkCompletion();
            }
            return out.size() >= n;
        }, maxNs);
        if (!ok) {
            throw new AssertionError("only " + out.size() + " of " + n + " completions within " + maxNs / 1_000_000_000.0
                + " s of virtual time: " + out + diagnostics.get());
        }
        return out;
    }
}
