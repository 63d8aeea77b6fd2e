package io.jroce.rnic.cm.api;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.Gid;

/** The CMA's checks of a REQ, one altered field at a time: each must be refused, the intact REQ taken. */
class CmaRequestCheckTest {
    private static final Gid CLIENT = Gid.parse("192.168.7.2");
    private static final Gid SERVER = Gid.parse("192.168.7.1");

    /** The RDMA CM header as cma_format_hdr writes it: CLIENT:50000 to SERVER. */
    private static byte[] header(Gid source, Gid destination, int ipVersion) {
        byte[] pd = new byte[92];
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(pd), 0);
        h.cmaVersion(0).ipVersion(ipVersion).port(50000);
        put(pd, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, source);
        put(pd, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, destination);
        return pd;
    }

    private static void put(byte[] pd, int offset, Gid g) {
        if (g.isIpv4Mapped()) {
            for (int i = 0; i < 4; i++) {
                pd[offset + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i] = g.byteAt(12 + i);
            }
        } else {
            g.copyTo(pd, offset);
        }
    }

    private static String check(byte[] pd) {
        return CmaRequestCheck.refusal(pd, CLIENT, SERVER, SERVER.toBytes(), SERVER);
    }

    /** A wildcard listener's check of a REQ arrived on a device with SERVER and fd00::1, at {@code arrivedOn}. */
    private static String wildcardCheck(byte[] pd, Gid source, Gid arrivedOn, boolean ipv6Listener) {
        return CmaRequestCheck.wildcardRefusal(pd, source, arrivedOn, arrivedOn.toBytes(), ipv6Listener,
            java.util.List.of(SERVER, Gid.parse("fd00::1")));
    }

    @Test
    void aWildcardListenerTakesARequestToAnyAddressOfTheDeviceOfAnAcceptedFamily() {
        Gid client6 = Gid.parse("fd00::2");
        Gid server6 = Gid.parse("fd00::1");
        assertNull(wildcardCheck(header(CLIENT, SERVER, 4), CLIENT, SERVER, false), "IPv4 to 0.0.0.0");
        assertNull(wildcardCheck(header(CLIENT, SERVER, 4), CLIENT, SERVER, true), "IPv4 to :: (bindv6only=0)");
        assertNull(wildcardCheck(header(client6, server6, 6), client6, server6, true), "IPv6 to ::");
        assertTrue(wildcardCheck(header(client6, server6, 6), client6, server6, false).contains("other family"),
            "IPv6 to 0.0.0.0: an AF_INET ID is afonly");
        Gid elsewhere = Gid.parse("192.168.7.3");
        assertTrue(wildcardCheck(header(CLIENT, elsewhere, 4), CLIENT, SERVER, false).contains("no address of the device"),
            "a destination the device does not own");
        assertNotNull(wildcardCheck(header(Gid.parse("224.0.0.1"), SERVER, 4), Gid.parse("224.0.0.1"), SERVER, true),
            "the other checks still apply");
    }

    @Test
    void anIntactRequestPasses() {
        assertNull(check(header(CLIENT, SERVER, 4)));
    }

    @Test
    void anotherHeaderVersionIsRefused() {
        byte[] pd = header(CLIENT, SERVER, 4);
        pd[0] = 1;
        assertTrue(check(pd).contains("version"), check(pd));
    }

    @Test
    void anIpVersionOtherThan4Or6IsRefused() {
        assertTrue(check(header(CLIENT, SERVER, 5)).contains("IP version 5"));
        assertNotNull(check(header(CLIENT, SERVER, 0)));
    }

    @Test
    void anIpv6HeaderToAnIpv4ListenerIsRefused() {
        assertNotNull(check(header(Gid.parse("fd00::2"), Gid.parse("fd00::1"), 6)));
    }

    @Test
    void aDestinationOtherThanTheListenersIsRefused() {
        assertNotNull(check(header(CLIENT, Gid.parse("192.168.7.3"), 4)));
    }

    @Test
    void zeroBroadcastMulticastAndLoopbackSourcesAreRefused() {
        for (String source : new String[] {"0.0.0.0", "0.1.2.3", "255.255.255.255", "224.0.0.1", "239.1.1.1",
            "127.0.0.1"}) {
            assertNotNull(CmaRequestCheck.refusal(header(Gid.parse(source), SERVER, 4), Gid.parse(source), SERVER,
                SERVER.toBytes(), SERVER), source);
        }
    }

    @Test
    void loopbackPeersOfALoopbackDeviceAreTaken() {
        Gid lo1 = Gid.parse("127.0.0.1");
        Gid lo2 = Gid.parse("127.0.0.2");
        assertNull(CmaRequestCheck.refusal(header(lo2, lo1, 4), lo2, lo1, lo1.toBytes(), lo1));
        assertNotNull(CmaRequestCheck.unroutable(Gid.parse("::1"), Gid.parse("fd00::1")));
        assertNotNull(CmaRequestCheck.unroutable(Gid.parse("ff02::1"), Gid.parse("fd00::1")));
        assertNotNull(CmaRequestCheck.unroutable(Gid.parse("::"), Gid.parse("fd00::1")));
        assertNull(CmaRequestCheck.unroutable(Gid.parse("fd00::2"), Gid.parse("fd00::1")));
    }

    @Test
    void aHeaderSourceOtherThanTheSenderIsRefused() {
        assertNotNull(check(header(Gid.parse("192.168.7.9"), SERVER, 4)));
    }

    @Test
    void aRequestedGidOtherThanTheArrivalGidIsRefused() {
        assertNotNull(CmaRequestCheck.refusal(header(CLIENT, SERVER, 4), CLIENT, SERVER,
            Gid.parse("192.168.7.5").toBytes(), SERVER));
    }
}
