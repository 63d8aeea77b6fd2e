package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.verbs.Gid;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected texts are glibc's inet_ntop(AF_INET6) output, which ibv_rc_pingpong prints. */
class GidTextTest {
    @ParameterizedTest
    @CsvSource({
        "00000000000000000000ffff7f000001, ::ffff:127.0.0.1",
        "00000000000000000000ffff0a4d0003, ::ffff:10.77.0.3",
        "00000000000000000000000000000001, ::1",
        "00000000000000000000000000000000, ::",
        "fe800000000000005054fffe12346f00, fe80::5054:fffe:1234:6f00",
        "20010db8000000000000000000000001, 2001:db8::1",
        "00010000000000020000000000000003, 1:0:0:2::3",
        "00010000000000020000000000030004, 1::2:0:0:3:4",
        "00010002000300040005000600070008, 1:2:3:4:5:6:7:8",
        "00010000000200030004000500060007, 1:0:2:3:4:5:6:7",
        "00000000000000000000000001020304, ::1.2.3.4",
        "20010db8000000000000000000000000, 2001:db8::",
        "000000000000000000000000ffff0001, ::255.255.0.1"})
    void formatsAsGlibcInetNtop(String wireHex, String expected) {
        assertEquals(expected, GidText.format(Gid.fromWireHex(wireHex)));
    }
}
