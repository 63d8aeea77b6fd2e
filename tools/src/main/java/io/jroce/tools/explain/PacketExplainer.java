package io.jroce.tools.explain;

import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.PcapReader;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * {@code --packet N}: one packet header by header and field by field, each with its value, what
 * it means, and where it is defined (IEEE 802.3, the RFCs of IP and UDP, the IBTA specification
 * Vol. 1 chapter 9 for the transport headers and Annex A17 for RoCEv2's UDP encapsulation and ICRC).
 */
final class PacketExplainer {
    private static final String FIELD = "    %-22s %-24s %s%n";

    private final PrintStream out;
    private final long startNs;

    PacketExplainer(PrintStream out, long startNs) {
        this.out = out;
        this.startNs = startNs;
    }

    void explain(Packet p, Connection c) {
        out.printf("frame %s, %s s after the first, %d bytes captured%s%n", p.label(),
            Durations.relative(p.timeNs(), startNs), p.raw().data().length,
            c == null ? "" : ", connection " + c.number() + " (" + (c.from(p) == 0 ? "A to B" : "B to A") + ")");
        out.println("  " + PacketText.label(p));
        out.println();
        int ip = link(p.raw());
        int udp = ip >= 0 ? internet(p.raw().data(), ip) : -1;
        if (udp >= 0) {
            udp(p.raw().data(), udp);
        }
        transport(p);
    }

    /** The link-layer header; returns where the IP header starts. */
    private int link(PcapReader.Record r) {
        ByteBuffer b = ByteBuffer.wrap(r.data());
        switch (r.linkType()) {
            case PcapReader.LINKTYPE_ETHERNET -> {
                header("Ethernet II", "IEEE 802.3", 0, 14);
                field("destination", mac(r.data(), 0), "the next hop's MAC address");
                field("source", mac(r.data(), 6), "the sender's MAC address");
                int type = b.getShort(12) & 0xFFFF;
                if (type == 0x8100) {
                    field("VLAN tag", String.format("0x%04x", b.getShort(14) & 0xFFFF),
                        "802.1Q: priority (PCP) " + ((b.getShort(14) >> 13) & 7) + ", VLAN " + (b.getShort(14) & 0xFFF));
                    type = b.getShort(16) & 0xFFFF;
                    field("ethertype", String.format("0x%04x", type), etherType(type));
                    return 18;
                }
                field("ethertype", String.format("0x%04x", type), etherType(type));
                return 14;
            }
            case PcapReader.LINKTYPE_LINUX_SLL -> {
                header("Linux cooked capture (SLL)", "libpcap LINKTYPE_LINUX_SLL", 0, 16);
                field("protocol", String.format("0x%04x", b.getShort(14) & 0xFFFF), etherType(b.getShort(14) & 0xFFFF));
                return 16;
            }
            case PcapReader.LINKTYPE_LINUX_SLL2 -> {
                header("Linux cooked capture v2 (SLL2)", "libpcap LINKTYPE_LINUX_SLL2", 0, 20);
                field("protocol", String.format("0x%04x", b.getShort(0) & 0xFFFF), etherType(b.getShort(0) & 0xFFFF));
                return 20;
            }
            default -> {
                return 0;
            }
        }
    }

    /** The IP header at {@code at}; returns where the UDP header starts. */
    private int internet(byte[] d, int at) {
        ByteBuffer b = ByteBuffer.wrap(d);
        if ((d[at] & 0xF0) == 0x40) {
            int ihl = (d[at] & 0x0F) * 4;
            header("IPv4", "RFC 791", at, ihl);
            field("version", "4", "IP version");
            field("header length", ihl + " B", "IHL, in 32-bit words: " + (ihl / 4));
            int tos = d[at + 1] & 0xFF;
            field("DSCP / ECN", (tos >> 2) + " / " + (tos & 3), "traffic class; ECN 3 = congestion experienced "
                + "(a RoCE NIC answers it with a CNP); masked out of the ICRC");
            field("total length", Integer.toString(b.getShort(at + 2) & 0xFFFF), "IP header and everything after it");
            field("identification", String.format("0x%04x", b.getShort(at + 4) & 0xFFFF),
                "covered by the ICRC, so a sender must know the ID the kernel gives the datagram");
            int ff = b.getShort(at + 6) & 0xFFFF;
            field("flags / fragment", String.format("0x%04x", ff), ((ff & 0x4000) != 0 ? "DF set" : "DF clear")
                + ", offset " + (ff & 0x1FFF));
            field("TTL", Integer.toString(d[at + 8] & 0xFF), "hops left; masked out of the ICRC");
            field("protocol", Integer.toString(d[at + 9] & 0xFF), "17 = UDP");
            field("header checksum", String.format("0x%04x", b.getShort(at + 10) & 0xFFFF),
                "ones' complement sum of the header; masked out of the ICRC");
            field("source", ip(d, at + 12, 4), "the sender: its RoCEv2 GID is this address, IPv4-mapped");
            field("destination", ip(d, at + 16, 4), "the receiver's GID");
            return at + ihl;
        }
        header("IPv6", "RFC 8200", at, 40);
        int word = b.getInt(at);
        field("version", "6", "IP version");
        field("traffic class", Integer.toString((word >> 20) & 0xFF), "DSCP and ECN; masked out of the ICRC");
        field("flow label", String.format("0x%05x", word & 0xFFFFF), "masked out of the ICRC");
        field("payload length", Integer.toString(b.getShort(at + 4) & 0xFFFF), "UDP header and everything after it");
        field("next header", Integer.toString(d[at + 6] & 0xFF), "17 = UDP");
        field("hop limit", Integer.toString(d[at + 7] & 0xFF), "masked out of the ICRC");
        field("source", ip(d, at + 8, 16), "the sender's GID");
        field("destination", ip(d, at + 24, 16), "the receiver's GID");
        return at + 40;
    }

    private void udp(byte[] d, int at) {
        ByteBuffer b = ByteBuffer.wrap(d);
        header("UDP", "RFC 768; IBTA Annex A17 for RoCEv2", at, 8);
        field("source port", Integer.toString(b.getShort(at) & 0xFFFF),
            "chosen by the sender (rxe hashes the QP into it, for ECMP); masked out of the ICRC");
        field("destination port", Integer.toString(b.getShort(at + 2) & 0xFFFF), "4791 = RoCEv2 (IANA)");
        field("length", Integer.toString(b.getShort(at + 4) & 0xFFFF), "UDP header, BTH..payload, pad and ICRC");
        field("checksum", String.format("0x%04x", b.getShort(at + 6) & 0xFFFF),
            "0 = none (allowed over IPv4); masked out of the ICRC");
    }

    private void transport(Packet p) {
        Packet.Bth t = p.bth();
        OpcodeInfo info = p.info();
        header("BTH, Base Transport Header", "IBTA Vol. 1 9.2", -1, 12);
        field("OpCode", String.format("0x%02x", t.opcode()), info.name() + ": " + info.transport() + " "
            + info.operation() + " " + info.position() + " (the top 3 bits name the transport, the low 5 the operation)");
        field("SE", t.solicited() ? "1" : "0", "solicited event: wake a receiver waiting for one");
        field("M", t.migReq() ? "1" : "0", "MigReq: path migration state");
        field("PadCnt", Integer.toString(t.padCount()), "bytes after the payload that round it to 4 bytes");
        field("TVer", Integer.toString(t.tver()), "transport header version, always 0");
        field("P_Key", String.format("0x%04x", t.pKey()), "partition key; 0xffff = default partition, full member");
        field("FECN / BECN", (t.fecn() ? 1 : 0) + " / " + (t.becn() ? 1 : 0),
            "congestion marks (InfiniBand; RoCEv2 uses IP ECN and CNPs); masked out of the ICRC");
        field("DestQP", String.format("0x%06x", t.destQp()), "the receiving queue pair");
        field("A", t.ackReq() ? "1" : "0", "AckReq: the requester asks for an acknowledgement of this packet");
        field("PSN", Integer.toString(t.psn()), "packet sequence number, 24 bits, wraps at 2^24");
        ExtHeaders e = p.ext();
        if (e.deth() != null) {
            header("DETH, Datagram Extended Transport Header", "IBTA Vol. 1 9.3", -1, 8);
            field("Q_Key", String.format("0x%08x", e.deth().qKey()), "must match the receiving UD QP's Q_Key"
                + (e.deth().qKey() == 0x80010000 ? " (0x80010000: the GSI's, QP1)" : ""));
            field("SrcQP", String.format("0x%06x", e.deth().sourceQp()), "the sending UD QP, where replies go");
        }
        if (e.reth() != null) {
            header("RETH, RDMA Extended Transport Header", "IBTA Vol. 1 9.3", -1, 16);
            field("VA", String.format("0x%016x", e.reth().virtualAddress()), "remote virtual address of the access");
            field("R_Key", String.format("0x%08x", e.reth().rKey()), "remote key of the memory region");
            field("DMA Length", Long.toString(e.reth().dmaLength()), "bytes of the whole RDMA message");
        }
        if (e.atomicEth() != null) {
            header("AtomicETH, Atomic Extended Transport Header", "IBTA Vol. 1 9.3", -1, 28);
            field("VA", String.format("0x%016x", e.atomicEth().virtualAddress()), "remote address of the 8-byte target");
            field("R_Key", String.format("0x%08x", e.atomicEth().rKey()), "remote key of the memory region");
            boolean cas = t.opcode() == Opcode.RC_COMPARE_SWAP;
            field(cas ? "Swap Data" : "Add Data", String.format("0x%016x", e.atomicEth().swapAdd()),
                cas ? "written when the target equals Compare Data" : "added to the target");
            field("Compare Data", String.format("0x%016x", e.atomicEth().compare()),
                cas ? "the value the target must hold" : "unused by FETCH ADD");
        }
        if (e.aeth() != null) {
            header("AETH, ACK Extended Transport Header", "IBTA Vol. 1 9.3", -1, 4);
            int syndrome = e.aeth().syndrome();
            field("Syndrome", String.format("0x%02x", syndrome), AethText.syndrome(syndrome) + syndromeNote(syndrome));
            field("MSN", Integer.toString(e.aeth().msn()), "message sequence number: requests the responder completed");
        }
        if (e.atomicAck() != null) {
            header("AtomicAckETH, Atomic Acknowledge Extended Transport Header", "IBTA Vol. 1 9.3", -1, 8);
            field("Original Remote Data", String.format("0x%016x", e.atomicAck()), "the target's value before the atomic");
        }
        if (e.immDt() != null) {
            header("ImmDt, Immediate Data Extended Transport Header", "IBTA Vol. 1 9.3", -1, 4);
            field("Immediate Data", String.format("0x%08x", e.immDt()), "handed to the receiver's completion");
        }
        if (e.ieth() != null) {
            header("IETH, Invalidate Extended Transport Header", "IBTA Vol. 1 9.3", -1, 4);
            field("R_Key", String.format("0x%08x", e.ieth()), "the remote key the responder invalidates");
        }
        if (info.hasPayload()) {
            out.printf("  payload: %d bytes%s%n", p.payload(), t.padCount() > 0 ? " and " + t.padCount() + " bytes of pad" : "");
        }
        if (p.roce() != null) {
            header("ICRC, Invariant CRC", "IBTA Annex A17", -1, 4);
            int expected = new IcrcCheck().expected(p.roce());
            field("ICRC", String.format("0x%08x", p.roce().icrc()), p.icrcOk() ? "verifies: CRC-32 over the "
                + "invariant fields of IP, UDP, BTH and everything after it"
                : String.format("does NOT verify (0x%08x computed): a receiver drops the packet", expected));
        }
    }

    private static String syndromeNote(int syndrome) {
        return switch (AethSyndrome.kind(syndrome)) {
            case ACK -> "; bits 6-5 = 00 ACK, low 5 bits the credit count (31 = none reported)";
            case RNR_NAK -> "; bits 6-5 = 01 RNR NAK, low 5 bits the RNR timer (IBTA Vol. 1 Table 45)";
            case NAK -> "; bits 6-5 = 11 NAK, low 5 bits the NAK code";
            case RESERVED -> "; bits 6-5 = 10 are reserved";
        };
    }

    private void header(String name, String where, int offset, int length) {
        out.printf("  %s (%s)%s, %d bytes%n", name, where, offset >= 0 ? ", at byte " + offset : "", length);
    }

    private void field(String name, String value, String meaning) {
        out.printf(Locale.ROOT, FIELD, name, value, meaning);
    }

    private static String mac(byte[] d, int at) {
        return String.format("%02x:%02x:%02x:%02x:%02x:%02x", d[at], d[at + 1], d[at + 2], d[at + 3], d[at + 4], d[at + 5]);
    }

    private static String ip(byte[] d, int at, int length) {
        byte[] a = new byte[length];
        System.arraycopy(d, at, a, 0, length);
        try {
            return java.net.InetAddress.getByAddress(a).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String etherType(int type) {
        return switch (type) {
            case 0x0800 -> "IPv4";
            case 0x86DD -> "IPv6";
            default -> "other";
        };
    }
}
