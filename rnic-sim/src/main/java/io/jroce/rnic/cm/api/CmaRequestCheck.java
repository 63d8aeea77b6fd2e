package io.jroce.rnic.cm.api;

import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.Gid;

/**
 * The checks the kernel's RDMA CM makes on a REQ before it reports CONNECT_REQUEST
 * ({@code cma_ib_req_handler}: {@code cma_save_ip_info}, {@code validate_net_dev},
 * {@code cma_match_private_data}, {@code cma_ib_acquire_dev}). A REQ that fails one is refused with
 * REJ 28 and local comm ID 0, as the kernel's {@code cm_destroy_id} sends it when the handler fails.
 * Each check returns why the REQ is refused, or null.
 */
final class CmaRequestCheck {
    private CmaRequestCheck() {
    }

    /**
     * @param privateData  the REQ's private data, the RDMA CM header first
     * @param packetSource the GID the REQ came from
     * @param arrivedOn    this device's GID the REQ arrived on
     * @param requestedGid the REQ's primary remote port GID: the GID of ours the peer asked for
     * @param listening    the address the listener is bound to
     * @return why the REQ is refused, or null if it passes
     */
    static String refusal(byte[] privateData, Gid packetSource, Gid arrivedOn, byte[] requestedGid, Gid listening) {
        return refusal(privateData, packetSource, arrivedOn, requestedGid, listening, false, null);
    }

    /**
     * The checks for a wildcard listener ({@code cma_match_private_data} with an any address): 0.0.0.0
     * takes IPv4 only (an AF_INET ID is afonly), :: both families (afonly is Linux's bindv6only, 0 by
     * default); the destination must be an address of the device the REQ arrived on, as
     * {@code validate_net_dev} finds the netdev that owns it.
     *
     * @param ipv6          the listener is bound to ::, not 0.0.0.0
     * @param deviceGids    the addresses of the device the REQ arrived on
     */
    static String wildcardRefusal(byte[] privateData, Gid packetSource, Gid arrivedOn, byte[] requestedGid,
                                  boolean ipv6, List<Gid> deviceGids) {
        return refusal(privateData, packetSource, arrivedOn, requestedGid, null, ipv6, deviceGids);
    }

    private static String refusal(byte[] privateData, Gid packetSource, Gid arrivedOn, byte[] requestedGid,
                                  Gid listening, boolean anyFamily, List<Gid> deviceGids) {
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(privateData), 0);
        if (h.cmaVersion() != CmaHeaderFlyweight.CMA_VERSION) {
            return "RDMA CM header version " + h.cmaVersion(); // cma_save_ip_info: -EINVAL
        }
        int ipVersion = h.ipVersion();
        if (ipVersion != 4 && ipVersion != 6) {
            return "IP version " + ipVersion; // cma_save_ip_info: -EAFNOSUPPORT, then no listener matches
        }
        boolean ipv4Listener = listening != null ? listening.isIpv4Mapped() : !anyFamily;
        if (!anyFamily && (ipVersion == 4) != ipv4Listener) {
            return "IPv" + ipVersion + " to a listener of the other family"; // cma_match_private_data
        }
        Gid source = CmaAddresses.read(privateData, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, ipVersion);
        Gid destination = CmaAddresses.read(privateData, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, ipVersion);
        if (listening != null && !destination.equals(listening)) {
            return "destination " + destination + " is not the listener's " + listening; // cma_match_private_data
        }
        if (listening == null && !deviceGids.contains(destination)) {
            return "destination " + destination + " is no address of the device it arrived on"; // validate_net_dev
        }
        String route = unroutable(source, destination);
        if (route != null) {
            return route;
        }
        if (!source.equals(packetSource)) {
            // Not a kernel check (it routes to the header's source whatever the packet's): jroce reports
            // the header's address to the application as the peer's, so it must be the sender's.
            return "the header's source " + source + " is not the sender " + packetSource;
        }
        if (!Arrays.equals(requestedGid, arrivedOn.toBytes())) {
            return "the REQ asks for GID " + Gid.of(requestedGid) + ", it arrived on " + arrivedOn; // cma_ib_acquire_dev
        }
        return null;
    }

    /**
     * {@code validate_ipv4_net_dev}: multicast, broadcast, zero-net and loopback addresses have no route
     * through a RoCE device (IPv6 alike: {@code rt6_lookup} finds none). jroce departs for loopback: a device
     * opened on 127.0.0.x runs over the loopback interface, so a loopback peer is refused only by a device
     * that is not itself on loopback.
     */
    static String unroutable(Gid source, Gid destination) {
        for (Gid g : new Gid[] {source, destination}) {
            if (g.isZero() || isMulticast(g) || isBroadcast(g) || isZeroNet(g)) {
                return "address " + g + " has no route";
            }
        }
        if (isLoopback(source) != isLoopback(destination)) {
            return "loopback and non-loopback addresses " + source + ", " + destination;
        }
        return null;
    }

    private static boolean isMulticast(Gid g) {
        return g.isIpv4Mapped() ? (g.byteAt(12) & 0xF0) == 0xE0 : (g.byteAt(0) & 0xFF) == 0xFF;
    }

    private static boolean isBroadcast(Gid g) {
        return g.isIpv4Mapped() && (g.byteAt(12) & g.byteAt(13) & g.byteAt(14) & g.byteAt(15) & 0xFF) == 0xFF;
    }

    /** IPv4 0.0.0.0/8; the IPv6 unspecified address is {@link Gid#isZero}. */
    private static boolean isZeroNet(Gid g) {
        return g.isIpv4Mapped() && g.byteAt(12) == 0;
    }

    private static boolean isLoopback(Gid g) {
        if (g.isIpv4Mapped()) {
            return g.byteAt(12) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (g.byteAt(i) != 0) {
                return false;
            }
        }
        return g.byteAt(15) == 1;
    }
}
