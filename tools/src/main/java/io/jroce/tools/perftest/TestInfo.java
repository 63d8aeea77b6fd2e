package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.QpType;
import java.io.PrintStream;

/** ctx_print_test_info: the banner and the parameter block perftest prints before it connects the QPs. */
final class TestInfo {
    private TestInfo() {
    }

    static void print(PrintStream out, PerftestParams p) {
        out.println(PerftestReportWriter.LINE);
        StringBuilder banner = new StringBuilder("                    ").append(p.verb.banner()).append(' ');
        if (p.verb == PerftestTool.Verb.ATOMIC) {
            banner.append(p.options.compareSwap() ? "CMP_AND_SWAP " : "FETCH_AND_ADD ");
        }
        if (p.tool.bandwidth()) {
            banner.append(p.duplex ? "Bidirectional " : "").append("BW ");
        } else {
            banner.append("Latency ");
        }
        out.println(banner.append("Test"));
        out.printf(" Dual-port       : OFF\t\tDevice         : %s%n", p.options.device().name());
        out.printf(" Number of qps   : %d\t\tTransport type : IB%n", p.numQps);
        out.printf(" Connection type : %s\t\tUsing SRQ      : OFF%n", connection(p.qpType));
        // jroce has no PCIe, and posts through one API (the ibv_post_send of the old flow).
        out.println(" PCIe relax order: Unsupported");
        out.println(" ibv_wr* API     : OFF");
        if (p.client || p.duplex) {
            out.printf(" TX depth        : %d%n", p.txDepth);
        }
        if (p.verb == PerftestTool.Verb.SEND && (!p.client || p.duplex)) {
            out.printf(" RX depth        : %d%n", p.rxDepth);
        }
        if (p.tool.bandwidth()) {
            out.printf(" CQ Moderation   : %d%n", p.cqMod);
        }
        out.printf(" Mtu             : %d[B]%n", p.mtu.bytes());
        out.println(" Link type       : Ethernet");
        out.printf(" GID index       : %d%n", p.gidIndex);
        if (!p.verb.usesOutstandingReads()) {
            out.printf(" Max inline data : %d[B]%n", p.inlineSize);
        } else {
            out.printf(" Outstand reads  : %d%n", p.outReads);
        }
        out.println(" rdma_cm QPs\t : " + (p.rdmaCm ? "ON" : "OFF"));
        out.print(" Data ex. method : " + (p.rdmaCm ? "rdma_cm" : "Ethernet"));
        if (p.rdmaCm && p.options.tos() != PerftestOptions.DEF_TOS) {
            out.print(" \tTOS    : " + p.options.tos());
        }
        if (p.rdmaCm && !p.client) {
            // printed once the QPs are connected, as perftest does
            out.println();
            out.println(PerftestReportWriter.LINE);
            out.println(" Waiting for client rdma_cm QP to connect");
            out.print(" Please run the same command with the IB/RoCE interface IP");
        }
        out.println();
        out.println(PerftestReportWriter.LINE);
    }

    private static String connection(QpType type) {
        return switch (type) {
            case RC -> "RC";
            case UC -> "UC";
            case UD -> "UD";
            default -> type.name();
        };
    }
}
