package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpType;
import java.io.PrintStream;

/**
 * The parameters a run works with (perftest's struct perftest_parameters): the options with
 * perftest's defaults (init_perftest_params), the dependencies it forces between them
 * (force_dependecies), then what the device and the peer decide (check_link, check_mtu). Warnings
 * go where perftest prints them.
 */
final class PerftestParams {
    /** MAX_SIZE: the largest message of -a, 2^23. */
    static final long MAX_SIZE = 1L << 23;
    private static final int MSG_SIZE_CQ_MOD_LIMIT = 8192;
    private static final int UC_MAX_RX = 16_000;

    final PerftestOptions options;
    final PerftestTool tool;
    final PerftestTool.Verb verb;
    final boolean client;
    final boolean duplex;
    final boolean runAll;
    final boolean durationMode;
    final QpType qpType;
    final int numQps;
    final boolean reqSize;
    /** -R: the QPs connected, and the exchange carried, by the RDMA CM. */
    final boolean rdmaCm;
    long size;
    /** Iterations per QP; in duration mode, the completions counted while sampling. */
    long iters;
    /** --warm-up: iterations run before the {@link #iters} measured ones. */
    final long warmUp;

    /** The iterations a latency run makes: the warm-up's, then the measured ones. */
    long runIters() {
        return warmUp + iters;
    }
    int txDepth;
    int rxDepth;
    int cqMod;
    /**
     * perftest's fill_count: with -n not a multiple of the CQ moderation (or of tx_depth when that
     * is smaller), a QP's last completion counts only the messages it still had, not cq_mod; else
     * with several QPs the count reaches the total while one QP still has messages to post, and
     * the loop stops polling and spins.
     */
    boolean fillCount;
    int inlineSize;
    int outReads = 1;
    int duration;
    int margin;
    boolean noPeak;
    int gidIndex;
    Mtu mtu;

    private PerftestParams(PerftestOptions o) {
        options = o;
        tool = o.tool();
        verb = tool.verb();
        client = o.isClient();
        duplex = o.flags().bidirectional();
        runAll = o.flags().all();
        durationMode = o.duration() > 0;
        qpType = o.qpType();
        numQps = o.numQps();
        reqSize = o.size() > 0;
        rdmaCm = o.flags().rdmaCm();
        size = o.size() > 0 ? o.size() : verb == PerftestTool.Verb.ATOMIC ? 8 : tool.bandwidth() ? 65_536 : 2;
        iters = o.iters() > 0 ? o.iters() : tool == PerftestTool.WRITE_BW ? 5000 : 1000;
        warmUp = o.warmUp();
        txDepth = o.txDepth() > 0 ? o.txDepth() : tool.bandwidth() ? 128 : 1;
        rxDepth = o.rxDepth() > 0 ? o.rxDepth() : verb == PerftestTool.Verb.SEND ? 512 : 1;
        cqMod = o.cqMod() > 0 ? o.cqMod() : 100;
        inlineSize = o.inlineSize();
        duration = durationMode ? o.duration() : 5;
        margin = o.margin();
        noPeak = o.flags().noPeak();
        gidIndex = o.gidIndex();
    }

    /** The options with perftest's defaults and forced dependencies; fails as perftest exits. */
    static PerftestParams resolve(PerftestOptions o, PrintStream out, PrintStream err) throws PerftestException {
        PerftestParams p = new PerftestParams(o);
        p.forceDependencies(out, err);
        return p;
    }

    private void forceDependencies(PrintStream out, PrintStream err) throws PerftestException {
        if (!durationMode) {
            txDepth = (int) Math.min(txDepth, iters);
            if (verb == PerftestTool.Verb.SEND && rxDepth > iters) {
                rxDepth = (int) iters;
            }
            if ((qpType == QpType.UD || qpType == QpType.UC) && rxDepth == 512) {
                rxDepth = (int) Math.min(iters, UC_MAX_RX);
            }
        }
        // Large messages need no CQ moderation, and with it the BW would be computed wrongly.
        if (size > MSG_SIZE_CQ_MOD_LIMIT && qpType != QpType.UD && !runAll) {
            if (options.cqMod() == 0) {
                cqMod = 1;
            } else if (cqMod > 1) {
                out.println(PerftestReportWriter.LINE);
                out.println("Warning: Large message requested and CQ moderation enabled");
                out.println("Warning: It can lead to inaccurate results");
            }
        }
        cqMod = Math.min(cqMod, txDepth);
        fillCount = !durationMode && (cqMod >= txDepth ? iters % txDepth != 0 : iters % cqMod != 0);
        if (verb.usesOutstandingReads()) {
            inlineSize = 0;
        }
        if (runAll) {
            size = MAX_SIZE;
        }
        if (verb == PerftestTool.Verb.ATOMIC && size != 8) {
            out.println(PerftestReportWriter.LINE);
            throw new PerftestException("Message size cannot be changed for Atomic tests ");
        }
        if (durationMode) {
            iters = 0;
            noPeak = true;
            if (runAll) {
                out.println(PerftestReportWriter.LINE);
                throw new PerftestException("Duration mode currently doesn't support running on all sizes.");
            }
        }
        if (rdmaCm && qpType == QpType.UC) {
            // perftest prints this on stdout, after a line
            out.println(PerftestReportWriter.LINE);
            out.println(" UC is not supported in librdmacm");
            throw new PerftestException("");
        }
        if (!rdmaCm && options.tos() != PerftestOptions.DEF_TOS) {
            // perftest prints this on stdout (RawEth, the other kind of QP that takes -T, is not a twin)
            out.println(" TOS only valid for rdma_cm based QP and RawEth QP ");
            throw new PerftestException("");
        }
        if (verb == PerftestTool.Verb.SEND && tool.bandwidth() && !client && !duplex) {
            noPeak = true;
        }
        if (qpType == QpType.UD && inlineSize > 884) {
            out.println(PerftestReportWriter.LINE);
            err.println("Setting inline size to 884 (Max inline size in UD)");
            inlineSize = 884;
        }
        // perftest's "WA for a bug when rx_depth is odd in SEND".
        if (verb == PerftestTool.Verb.SEND && rxDepth % 2 == 1 && !runAll) {
            rxDepth++;
        }
        if (!durationMode && iters > 20_000 && !noPeak && tool.bandwidth()) {
            noPeak = true;
        }
        if (durationMode && margin == -1) {
            margin = duration / 4;
        }
        if (!(duration > 2 * margin)) {
            out.println(PerftestReportWriter.LINE);
            throw new PerftestException("please check that DURATION > 2*MARGIN");
        }
    }

    /**
     * check_link and set_mtu with what the device says: GID index 0 on RoCE when -x is not given,
     * the inline size (ctx_set_max_inline: perftest's defaults for a device it knows, as jroce
     * implements inline sends), out_reads for READ/atomics, the MTU from -m or the port.
     */
    void applyDevice(int maxQpRdAtom, Mtu activeMtu, PrintStream out, PrintStream err) {
        if (gidIndex == -1) {
            gidIndex = 0;
        }
        if (inlineSize == -1) {
            inlineSize = 0;
            if (!tool.bandwidth()) {
                if (verb == PerftestTool.Verb.WRITE) {
                    inlineSize = 220;
                } else if (verb == PerftestTool.Verb.SEND) {
                    inlineSize = qpType == QpType.UD ? 188 : 236;
                }
            }
        }
        if (verb.usesOutstandingReads()) {
            int user = options.outReads();
            if (user > maxQpRdAtom) {
                out.println(PerftestReportWriter.LINE);
                err.println(" Number of outstanding reads is above max = " + maxQpRdAtom);
                err.println(" Changing to that max value");
                outReads = maxQpRdAtom;
            } else {
                outReads = user <= 0 ? maxQpRdAtom : user;
            }
        }
        mtu = activeMtu;
        if (options.mtu() != 0) {
            try {
                mtu = Mtu.fromBytes(options.mtu());
            } catch (RuntimeException e) {
                err.println(" Invalid MTU - " + options.mtu() + " ");
                err.println(" Please choose mtu from {256,512,1024,2048,4096}");
                err.println(" Will run with the port active mtu - " + activeMtu.enumValue());
            }
            if (mtu.bytes() > activeMtu.bytes()) {
                out.println("Requested mtu is higher than active mtu ");
                out.println("Changing to active mtu - " + activeMtu.enumValue());
                mtu = activeMtu;
            }
        }
    }

    /** check_mtu, after the peer told its MTU: UD messages must fit one packet. */
    void checkUdSize(PrintStream err) throws PerftestException {
        if (qpType == QpType.UD && size > mtu.bytes()) {
            if (runAll || !reqSize) {
                err.println(" Max msg size in UD is MTU " + mtu.bytes());
                err.println(" Changing to this MTU");
                size = mtu.bytes();
            } else {
                throw new PerftestException(" Max message size in UD cannot be greater than MTU ");
            }
        }
    }

    /** BUFF_SIZE: one QP's share of the buffer, at least a page (the cycle buffer). */
    long buffSize() {
        return Math.max(size, PerftestComm.PAGE_SIZE);
    }

    /** The tool's RESULT_FMT unit: MiB/s (perftest's "MB/sec") or, with --report_gbits, Gb/s. */
    boolean gbits() {
        return options.flags().reportGbits();
    }
}
