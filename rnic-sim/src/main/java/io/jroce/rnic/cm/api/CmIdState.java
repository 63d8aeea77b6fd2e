package io.jroce.rnic.cm.api;

import java.util.Arrays;

import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ResourceClosedException;

/**
 * The states of an RDMA CM ID as the application's calls see them (cma.c's {@code enum
 * rdma_cm_state}, with REQUEST for a connect request not yet answered and REJECTED for a connection
 * that failed), and the check each call makes of them.
 */
enum CmIdState {
    IDLE, BOUND, ADDR_RESOLVED, ROUTE_RESOLVED, LISTEN, CONNECTING, REQUEST, ACCEPTING, ESTABLISHED, DISCONNECTED,
    REJECTED, CLOSED;

    /**
     * Passes when this state is one of {@code allowed}.
     *
     * @throws ResourceClosedException the ID is closed
     * @throws InvalidStateException   the call is out of order
     */
    void expect(CmIdState... allowed) {
        if (this == CLOSED) {
            throw new ResourceClosedException("the RDMA CM ID is closed");
        }
        for (CmIdState a : allowed) {
            if (this == a) {
                return;
            }
        }
        throw new InvalidStateException("the ID is " + this + ", the call needs " + Arrays.toString(allowed));
    }
}
