package io.jroce.rnic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.Gid;

/**
 * The rig of the connection manager's fabric tests: two devices, A on 10.0.0.1 and B on 10.0.0.2, on
 * the simulated fabric with a 1 ms tick, a {@link ConnectionManager} on each (seeded), and every MAD
 * on the wire captured as it leaves, with when and whether A sent it; {@link #drop} decides which
 * the fabric loses.
 */
abstract class CmFabricRig {
    static final byte[] A = Gid.parse("10.0.0.1").toBytes();
    static final byte[] B = Gid.parse("10.0.0.2").toBytes();
    static final long MS = 1_000_000L;

    final SimulatedFabric fabric = SimulatedFabric.builder().tickNs(MS).build();
    final SoftDevice devA = (SoftDevice) SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
    final SoftDevice devB = (SoftDevice) SoftRnic.builder().name("b").address("10.0.0.2").openOn(fabric);
    final ConnectionManager cmA = new ConnectionManager(devA.gsi(), new Random(1));
    final ConnectionManager cmB = new ConnectionManager(devB.gsi(), new Random(2));
    /** Every MAD on the wire, in order. */
    final List<Mad> wire = new ArrayList<>();
    Predicate<Mad> drop = m -> false;

    /** A MAD as it left a device: when, whether A sent it, its 256 bytes. */
    record Mad(long atNs, boolean fromA, byte[] bytes) {
        int attribute() {
            return new MadHeaderFlyweight().wrap(new UnsafeBuffer(bytes), 0).attributeId();
        }

        long tid() {
            return new MadHeaderFlyweight().wrap(new UnsafeBuffer(bytes), 0).transactionId();
        }

        UnsafeBuffer buffer() {
            return new UnsafeBuffer(bytes);
        }
    }

    CmFabricRig() {
        fabric.fault(d -> {
            RocePacket p = new RocePacket();
            byte[] bytes = new byte[d.packet().capacity()];
            d.packet().getBytes(0, bytes);
            assertEquals(ParseResult.OK, p.wrap(new UnsafeBuffer(bytes), 0, bytes.length - IcrcCalculator.ICRC_LENGTH));
            byte[] mad = new byte[256];
            p.buffer().getBytes(p.payloadOffset(), mad);
            Mad m = new Mad(fabric.nowNs(), bytes[0] != 0 && sameAddress(d.src(), A), mad);
            wire.add(m);
            return !drop.test(m);
        });
    }

    private static boolean sameAddress(byte[] src, byte[] gid) {
        return src[src.length - 1] == gid[15];
    }

    /** The MADs of {@code attribute} on the wire, in order. */
    List<Mad> sent(int attribute) {
        return wire.stream().filter(m -> m.attribute() == attribute).toList();
    }

    long count(SoftDevice d, String name) {
        return d.counters().get(name);
    }

    @AfterEach
    void closeDevices() {
        devA.close();
        devB.close();
    }
}
