package io.jroce.tools.rdmaep;

import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import java.io.IOException;
import java.io.PrintStream;

/**
 * What rdma_server and rdma_client do alike before their endpoint: rdma_getaddrinfo of -s and -p,
 * and the jroce device that the address calls for, open for the rest of the run and closed after it.
 */
final class EpDevice {
    /** The rest of a run, on the open device. */
    @FunctionalInterface
    interface Rest {
        /** @return the program's status */
        int run(CmDevicePlan plan, int port) throws InterruptedException;
    }

    private EpDevice() {
    }

    /**
     * @param passive rdma_server's side (the device owns -s, or every host address for a wildcard),
     *                else rdma_client's (the device owns the source the route to -s leaves from)
     * @return {@code rest}'s status, getaddrinfo's error with rdma_getaddrinfo's line, or -1 when no
     *         device can have the address
     */
    static int run(EpOptions options, boolean passive, PrintStream out, PrintStream err, Rest rest)
        throws InterruptedException {
        AddrLookup.Result lookup = AddrLookup.lookup(options.server(), options.port(), false);
        if (lookup.failed()) {
            out.println("rdma_getaddrinfo: " + lookup.errorText());
            return lookup.error();
        }
        CmDevicePlan plan;
        RdmaDevice device;
        try {
            plan = passive ? CmDevicePlan.passive(lookup.address(), options.binds())
                : CmDevicePlan.active(lookup.address(), null, options.binds());
            device = plan.device(options.device()).open();
        } catch (IOException | VerbsException e) {
            // rdma_create_ep's rdma_bind_addr or rdma_resolve_addr: no device has the address
            err.println("rdma_create_ep: Cannot assign requested address");
            return -1;
        }
        try (device) {
            return rest.run(plan, lookup.port());
        }
    }
}
