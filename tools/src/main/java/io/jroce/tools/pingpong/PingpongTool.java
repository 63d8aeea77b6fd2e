package io.jroce.tools.pingpong;

import io.jroce.verbs.Gid;
import io.jroce.verbs.QpType;
import io.jroce.verbs.exchange.PingpongDest;

/**
 * The four ping-pong examples of rdma-core v44 ({@code libibverbs/examples/*_pingpong.c}) that
 * jroce has twins of, and what sets each apart: its options, its default message size, its queue
 * pairs and the words of its messages. Everything they share (the TCP exchange, the loop, the
 * report) is one piece of code that asks the tool where they differ.
 */
enum PingpongTool {
    /** ibv_rc_pingpong: one RC QP. */
    RC("rc_pingpong", QpType.RC, 4096, "pdismrnlg", "eoOPtcjN", "can't read sgid of index "),
    /** ibv_uc_pingpong: one UC QP; RTR takes only the address, path MTU, dest QPN and rq_psn. */
    UC("uc_pingpong", QpType.UC, 4096, "pdismrnlg", "ec", "can't read sgid of index "),
    /**
     * ibv_ud_pingpong: one UD QP with Q_Key {@value #UD_QKEY}, sends through an address handle;
     * messages must fit the port's active MTU and land after the 40-byte GRH of the receive buffer.
     */
    UD("ud_pingpong", QpType.UD, 1024, "pdisrnlg", "ec", "Could not get local gid for gid index "),
    /** ibv_srq_pingpong: -q RC QPs (default 16) that share one SRQ; 256 address messages each way. */
    SRQ("srq_pingpong", QpType.RC, 4096, "pdismqrnlg", "eoc", "Could not get local gid for gid index ");

    /** The Q_Key of ud_pingpong's QP and of every datagram it sends. */
    static final int UD_QKEY = 0x11111111;
    /** ud_pingpong's room for the GRH at the start of each receive (sizeof(struct ibv_grh)). */
    static final int GRH_ROOM = 40;
    /** srq_pingpong's MAX_QP: it always exchanges this many address messages, zeros past num_qp. */
    static final int SRQ_MAX_QP = 256;
    /** srq_pingpong's default -q. */
    static final int SRQ_DEFAULT_QPS = 16;

    private final String command;
    private final QpType qpType;
    private final int defaultSize;
    private final String valuedOptions;
    private final String flagOptions;
    private final String gidFailure;

    PingpongTool(String command, QpType qpType, int defaultSize, String valuedOptions, String flagOptions,
                 String gidFailure) {
        this.command = command;
        this.qpType = qpType;
        this.defaultSize = defaultSize;
        this.valuedOptions = valuedOptions;
        this.flagOptions = flagOptions;
        this.gidFailure = gidFailure;
    }

    /** {@code jroce NAME}. */
    String command() {
        return command;
    }

    /** The rdma-core program it is the twin of. */
    String realTool() {
        return "ibv_" + command;
    }

    QpType qpType() {
        return qpType;
    }

    /** The size when -s is not given. */
    int defaultSize() {
        return defaultSize;
    }

    /** Whether the real tool has the short option {@code -letter} (getopt's optstring). */
    boolean hasOption(char letter) {
        return valuedOptions.indexOf(letter) >= 0 || flagOptions.indexOf(letter) >= 0;
    }

    /** Whether the QPs draw their receives from one shared receive queue. */
    boolean sharedReceiveQueue() {
        return this == SRQ;
    }

    /** Address messages each side writes: srq_pingpong always sends MAX_QP of them. */
    int exchangedMessages() {
        return this == SRQ ? SRQ_MAX_QP : 1;
    }

    /** Bytes before the message in the buffer: the GRH room of ud_pingpong, else none. */
    int headroom() {
        return this == UD ? GRH_ROOM : 0;
    }

    /** What the buffer is filled with before anything is sent: srq_pingpong zeroes it, the others write 0x7b. */
    byte fill() {
        return this == SRQ ? 0 : (byte) 0x7b;
    }

    /** The start of the line the tool prints when the GID at index {@code -g} cannot be read. */
    String gidFailure() {
        return gidFailure;
    }

    /**
     * The "local address" line. ud_pingpong prints a colon before the GID where every other line
     * of every tool has a comma; the twin prints it the same way.
     */
    String localLine(PingpongDest mine) {
        return "  local address:  " + describe(mine, this == UD ? ": " : ", ");
    }

    /** The "remote address" line. */
    static String remoteLine(PingpongDest remote) {
        return "  remote address: " + describe(remote, ", ");
    }

    /** The text after "local address:" or "remote address:", {@code beforeGid} before "GID". */
    static String describe(PingpongDest d, String beforeGid) {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x%sGID %s", d.lid(), d.qpn(), d.psn(), beforeGid,
            GidText.format(d.gid()));
    }

    /**
     * An entry srq_pingpong sends for each QP past num_qp: every field zero (memset of my_dest),
     * which reads {@code 0000:000000:000000:} and 32 zeros on the wire.
     */
    static PingpongDest unusedDest() {
        return new PingpongDest(0, 0, 0, Gid.of(new byte[Gid.LENGTH]));
    }
}
