package io.jroce.tests.rc;

/** {@link RcDataPathTest} between two devices on 127.0.0.1 (IPv4-mapped GIDs). */
class RcDataPathIpv4Test extends RcDataPathTest {
    @Override
    String address() {
        return "127.0.0.1";
    }
}
