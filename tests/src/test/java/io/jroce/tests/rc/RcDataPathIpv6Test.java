package io.jroce.tests.rc;

/** {@link RcDataPathTest} between two devices on ::1 (IPv6 GIDs, IPv6 UDP). */
class RcDataPathIpv6Test extends RcDataPathTest {
    @Override
    String address() {
        return "::1";
    }
}
