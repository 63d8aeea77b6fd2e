package io.jroce.tools.lesson;

import io.jroce.stack.fabric.FabricDatagram;
import io.jroce.stack.fabric.FabricFault;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Captures every datagram as the fabric takes it, before its faults act, so that the lesson's
 * capture shows a lost packet where it was sent; {@link #frames()} marks what the fabric's trace
 * says was dropped. A device draws its rkeys at random and its memory lies where the JVM put it,
 * so the capture shows each registered region at a fixed address and rkey instead
 * ({@link #showAs}), with its ICRC computed again: the output is the same on every run.
 */
final class FrameRecorder implements FabricFault {
    /** A region as the wire carries it, and as the lesson shows it. */
    private record Shown(long va, int rkey, long length, long shownVa, int shownRkey) {
    }

    private final SimulatedFabric fabric;
    private final byte[] addressA;
    private final List<WireFrame> frames = new ArrayList<>();
    private final Map<Long, Integer> bySequence = new HashMap<>();
    private final List<Shown> shown = new ArrayList<>();
    private final IcrcCalculator icrc = new IcrcCalculator();

    FrameRecorder(SimulatedFabric fabric, byte[] addressA) {
        this.fabric = fabric;
        this.addressA = addressA.clone();
    }

    /** Shows the region at {@code va} with {@code rkey} as {@code shownVa} and {@code shownRkey}. */
    void showAs(long va, int rkey, long length, long shownVa, int shownRkey) {
        shown.add(new Shown(va, rkey, length, shownVa, shownRkey));
    }

    @Override
    public boolean deliver(FabricDatagram d) {
        UnsafeBuffer p = d.packet();
        byte[] bytes = new byte[p.capacity()];
        p.getBytes(0, bytes);
        byte[] src = d.src();
        byte[] dst = d.dst();
        bytes = normalise(bytes, src, dst, d.srcPort(), d.dstPort());
        bySequence.put(d.sequence(), frames.size());
        frames.add(new WireFrame(frames.size() + 1, fabric.nowNs(), Arrays.equals(src, addressA), src, dst, d.srcPort(),
            d.dstPort(), bytes, null));
        return true;
    }

    /** The frames so far, those the fabric's trace saw dropped marked with why. */
    List<WireFrame> frames() {
        List<WireFrame> out = new ArrayList<>(frames);
        for (TraceEvent e : fabric.trace().events()) {
            Integer i = bySequence.get(e.id());
            if (i != null && e.fate() == Fate.DROPPED) {
                // A rule's name, without the counts its description adds (they grow during the run).
                out.set(i, out.get(i).lost(e.cause().replaceAll(" \\(seen \\d+, applied \\d+\\)", "")));
            }
        }
        return out;
    }

    private byte[] normalise(byte[] bytes, byte[] src, byte[] dst, int srcPort, int dstPort) {
        OpcodeInfo info = OpcodeTable.get(bytes[0] & 0xFF);
        if (info == null) {
            return bytes;
        }
        int at = info.has(ExtensionHeader.RETH) ? info.offset(ExtensionHeader.RETH)
            : info.has(ExtensionHeader.ATOMIC_ETH) ? info.offset(ExtensionHeader.ATOMIC_ETH) : -1;
        if (at < 0 || !IpAddresses.isIpv4Mapped(src) || !IpAddresses.isIpv4Mapped(dst)) {
            return bytes;
        }
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        long va = b.getLong(at, ByteOrder.BIG_ENDIAN);
        int rkey = b.getInt(at + 8, ByteOrder.BIG_ENDIAN);
        for (Shown s : shown) {
            if (s.rkey == rkey && va - s.va >= 0 && va - s.va <= s.length) {
                b.putLong(at, s.shownVa + (va - s.va), ByteOrder.BIG_ENDIAN);
                b.putInt(at + 8, s.shownRkey, ByteOrder.BIG_ENDIAN);
                int length = bytes.length - IcrcCalculator.ICRC_LENGTH;
                IcrcCalculator.writeIcrc(b, length, icrc.computeIpv4(IpAddresses.ipv4(src), IpAddresses.ipv4(dst), 0,
                    IcrcCalculator.IPV4_FLAGS_DF, srcPort, dstPort, b, 0, length));
                break;
            }
        }
        return bytes;
    }
}
