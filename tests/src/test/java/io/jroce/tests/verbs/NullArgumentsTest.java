package io.jroce.tests.verbs;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A null where the API wants an object is a careless call, and it gets the API's typed exception
 * naming the argument, never a bare NullPointerException from deep inside.
 */
class NullArgumentsTest {
    private static void refused(String expectedMessage, Executable call) {
        InvalidAttributeException e = assertThrows(InvalidAttributeException.class, call);
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void valueTypesNameTheNullArgument() {
        refused("IP address literal is null", () -> Gid.parse(null));
        refused("sg_list is null", () -> new SendWorkRequest().sgList((ScatterGatherEntry[]) null));
        refused("sg_list is null", () -> new SendWorkRequest().sgList(null, 0));
        refused("sg_list[1] is null", () -> new SendWorkRequest().sgList(new ScatterGatherEntry(), null));
        refused("sg_list[0] is null", () -> new SendWorkRequest().sgList(new ScatterGatherEntry[2], 1));
        refused("sg_list is null", () -> new ReceiveWorkRequest().sgList((ScatterGatherEntry[]) null));
        refused("sg_list[0] is null", () -> new ReceiveWorkRequest().sgList(new ScatterGatherEntry[] {null}));
        refused("sg_list[1] is null", () -> new ReceiveWorkRequest().sgList(new ScatterGatherEntry[3], 0).sgList(
            new ScatterGatherEntry[] {new ScatterGatherEntry(), null}, 2));
    }

    @Test
    void deviceBuilderNamesTheNullArgument() {
        refused("address is null", () -> SoftRnic.builder().address(null));
        refused("device name is null", () -> SoftRnic.builder().name(null));
        refused("active MTU is null", () -> SoftRnic.builder().activeMtu(null));
        refused("pcap file is null", () -> SoftRnic.builder().pcap(null));
    }
}
