package io.jroce.tools.perftest;

/** The help of {@code jroce <tool>}: perftest's options that the twins take, then jroce's own. */
final class PerftestUsage {
    private PerftestUsage() {
    }

    static String text(PerftestTool tool) {
        boolean bw = tool.bandwidth();
        PerftestTool.Verb verb = tool.verb();
        StringBuilder sb = new StringBuilder();
        String name = "jroce " + tool.command();
        sb.append("Usage:\n  ").append(name).append("            start a server and wait for connection\n");
        sb.append("  ").append(name).append(" <host>     connect to server at <host>\n\n");
        sb.append(tool.realTool()).append(" (perftest v4.5-0.17, version 6.06 on the wire) on a jroce device: the same\n");
        sb.append("options, TCP exchange, QP attributes, loops and report, so either side may be jroce or the\n");
        sb.append("real tool on Linux rxe. Times are System.nanoTime(), not CPU cycles.\n\nOptions:\n");
        sb.append("  -a, --all                   Run sizes from 2 till 2^23\n");
        if (bw) {
            sb.append("  -b, --bidirectional         Measure bidirectional bandwidth (default unidirectional)\n");
        }
        sb.append("  -c, --connection=<type>     Connection type RC").append(
            verb == PerftestTool.Verb.SEND ? "/UC/UD" : verb == PerftestTool.Verb.WRITE ? "/UC" : "")
            .append(" (default RC)\n");
        sb.append("  -d, --ib-dev=<dev>          jroce device of the device file (default: its first)\n");
        sb.append("  -D, --duration=<seconds>    Run the test for a customized period of seconds\n");
        sb.append("  -f, --margin=<seconds>      Measure results within margins (default: duration/4)\n");
        sb.append("  -F, --CPU-freq              Accepted; a JVM has no CPU frequency to check\n");
        sb.append("  -h, --help                  Show this help screen\n");
        sb.append("  -i, --ib-port=<port>        Use port <port> of the device: 1, the only one\n");
        if (!verb.usesOutstandingReads()) {
            sb.append("  -I, --inline_size=<size>    Max size of message to be sent in inline\n");
        }
        sb.append("  -m, --mtu=<mtu>             MTU size: 256 - 4096 (default port mtu)\n");
        if (bw) {
            sb.append("  -N, --noPeak                Cancel peak-bw calculation\n");
        }
        sb.append("  -n, --iters=<iters>         Number of exchanges (at least 5, default ")
            .append(tool == PerftestTool.WRITE_BW ? 5000 : 1000).append(")\n");
        if (verb.usesOutstandingReads()) {
            sb.append("  -o, --outs=<num>            Number of outstanding read/atom (default max of device)\n");
        }
        sb.append("  -p, --port=<port>           Listen on/connect to port <port> (default 18515)\n");
        if (bw) {
            sb.append("  -q, --qp=<num of qp's>      Num of qp's (default 1)\n");
            sb.append("  -Q, --cq-mod                Generate Cqe only after <--cq-mod> completion\n");
        }
        if (verb == PerftestTool.Verb.SEND) {
            sb.append("  -r, --rx-depth=<dep>        Rx queue size (default 512)\n");
        }
        if (verb != PerftestTool.Verb.ATOMIC) {
            sb.append("  -s, --size=<size>           Size of message to exchange (default ").append(bw ? 65536 : 2)
                .append(")\n");
        }
        sb.append("  -R, --rdma_cm               Connect QPs with rdma_cm and run test on those QPs (RC, UD)\n");
        sb.append("  -S, --sl=<sl>               SL (default 0)\n");
        sb.append("  -t, --tx-depth=<dep>        Size of tx queue (default ").append(bw ? 128 : 1).append(")\n");
        sb.append("  -u, --qp-timeout=<timeout>  QP timeout, timeout value is 4 usec * 2 ^(timeout), default 14\n");
        sb.append("  -V, --version               Display version number\n");
        sb.append("  -x, --gid-index=<index>     GID index: one per --bind address (default 0)\n");
        if (verb == PerftestTool.Verb.ATOMIC) {
            sb.append("  -A, --atomic_type=<type>    CMP_AND_SWAP or FETCH_AND_ADD (default FETCH_AND_ADD)\n");
        }
        if (bw) {
            sb.append("      --report_gbits          Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)\n");
        }
        sb.append("""

            jroce options (what a kernel RDMA device knows by itself):
              --bind ADDR            IP address of the device, one GID each; repeatable (default 127.0.0.1)
              --udp-port N           RoCE UDP port of this device, and of the peer (default 4791)
              --peer-udp-port N      RoCE UDP port of the peer if it differs
              --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
              --progress MODE        which thread runs the device: invoker (default: the tool busy-polls
                                     as its original does, so the polling thread does the RNIC's work, with no
                                     hand-off) or eventLoop (its own I/O thread); docs/progress-modes.md
            """);
        if (!bw) {
            sb.append("  --warm-up N            run N iterations before the -n measured ones (both sides give the\n")
                .append("                         same N): the figures of a warmed-up JVM; docs/benchmarks.md\n");
        }
        sb.append("""

            perftest options jroce does not take (-z, -e, -g, -M, -O, -l, -C, -H, -U, --use_cuda, ...)
            are refused with the reason.
            """);
        return sb.toString();
    }
}
