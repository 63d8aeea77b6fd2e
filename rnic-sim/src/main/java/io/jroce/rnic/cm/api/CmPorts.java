package io.jroce.rnic.cm.api;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.cm.PortSpace;

/**
 * The ports the IDs hold, JVM-wide per port space: the kernel's bind lists ({@code cma_ps_find},
 * {@code cma_get_port}). An ID bound to a wildcard shares its port with no other ID, nor a bound ID
 * with a wildcard: {@code cma_check_port} refuses them unless both are afonly IDs of different
 * families, and only an IPv4 ID is afonly here (IPv6 IDs follow Linux's default bindv6only=0;
 * jroce offers neither {@code RDMA_OPTION_ID_AFONLY} nor {@code RDMA_OPTION_ID_REUSEADDR}). Two IDs
 * on one specific address and port are left to {@code listen}, which refuses the second listener.
 */
final class CmPorts {
    /** Linux's {@code ip_local_port_range}, where {@code cma_alloc_any_port} picks a port for port 0. */
    static final int EPHEMERAL_FIRST = 32768;
    static final int EPHEMERAL_LAST = 60999;

    /** A port an ID holds; wildcard until address resolution picks its source address. */
    static final class Binding {
        final SoftCmId id;
        final PortSpace portSpace;
        final int port;
        private boolean wildcard;

        private Binding(SoftCmId id, PortSpace portSpace, int port, boolean wildcard) {
            this.id = id;
            this.portSpace = portSpace;
            this.port = port;
            this.wildcard = wildcard;
        }
    }

    private static final Map<PortSpace, Map<Integer, List<Binding>>> BOUND = new EnumMap<>(PortSpace.class);

    private CmPorts() {
    }

    /**
     * Binds {@code id} to {@code port} of {@code portSpace} (0: a free ephemeral port).
     *
     * @throws InvalidStateException     a wildcard and another ID share the port, and that ID listens
     * @throws InvalidAttributeException a wildcard and another ID share the port (EADDRNOTAVAIL)
     * @throws ResourceLimitException    no ephemeral port is free
     */
    static synchronized Binding bind(SoftCmId id, PortSpace portSpace, int port, boolean wildcard) {
        Map<Integer, List<Binding>> ports = BOUND.computeIfAbsent(portSpace, ps -> new HashMap<>());
        int p = port != 0 ? port : freePort(ports);
        List<Binding> owners = ports.computeIfAbsent(p, x -> new ArrayList<>());
        for (Binding other : owners) {
            if (wildcard || other.wildcard) {
                String why = "port " + p + " of " + portSpace + " is held by another ID bound to "
                    + other.id.localAddress() + ": a wildcard and another address cannot share it (EADDRNOTAVAIL)";
                if (other.id.isListening()) {
                    throw new InvalidStateException(why + "; it is already listened on");
                }
                throw new InvalidAttributeException(why);
            }
        }
        Binding b = new Binding(id, portSpace, p, wildcard);
        owners.add(b);
        return b;
    }

    /** The ID's source address is no longer the wildcard: address resolution picked one. */
    static synchronized void specify(Binding b) {
        b.wildcard = false;
    }

    /** The ID is destroyed: its port is free again. */
    static synchronized void release(Binding b) {
        Map<Integer, List<Binding>> ports = BOUND.get(b.portSpace);
        List<Binding> owners = ports.get(b.port);
        if (owners != null && owners.remove(b) && owners.isEmpty()) {
            ports.remove(b.port);
        }
    }

    /**
     * A device closed: the IDs bound to it can no longer listen nor connect, and free their ports. The
     * kernel holds an ID's port until {@code rdma_destroy_id} even after its device is removed; here an ID
     * its program never destroyed (an in-process run that ended) would otherwise hold the port for the JVM.
     */
    static synchronized void releaseDevice(CmDevice d) {
        for (Map<Integer, List<Binding>> ports : BOUND.values()) {
            ports.values().forEach(owners -> owners.removeIf(b -> b.id.cmDevice() == d));
            ports.values().removeIf(List::isEmpty);
        }
    }

    /** {@code cma_alloc_any_port}: from a random port of the range on, the first nobody holds. */
    private static int freePort(Map<Integer, List<Binding>> ports) {
        int range = EPHEMERAL_LAST - EPHEMERAL_FIRST + 1;
        int start = ThreadLocalRandom.current().nextInt(range);
        for (int i = 0; i < range; i++) {
            int p = EPHEMERAL_FIRST + (start + i) % range;
            if (!ports.containsKey(p)) {
                return p;
            }
        }
        throw new ResourceLimitException("no free ephemeral port in " + EPHEMERAL_FIRST + ".." + EPHEMERAL_LAST);
    }
}
