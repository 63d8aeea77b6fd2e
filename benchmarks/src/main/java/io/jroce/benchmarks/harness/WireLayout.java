package io.jroce.benchmarks.harness;

import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeTable;
import io.jroce.stack.wire.RoceV2;

/**
 * The lengths of the packets jroce puts on the wire for one RC message, computed from the same
 * opcode table the RNIC builds its packets with, so that the raw-UDP baseline sends datagrams of
 * exactly the sizes the RNIC would. Lengths run from the BTH to the end of the pad, without the
 * 4-byte ICRC, which {@code UdpTransport} appends to every datagram for both.
 *
 * <p>A message of {@code size} bytes at path MTU {@code mtu} takes {@code max(1, ceil(size / mtu))}
 * packets; every one carries a BTH (12 bytes); the first packet of an RDMA WRITE a RETH (16); the
 * first and last READ response an AETH (4). E.g. 64 KiB at MTU 4096: 16 packets, the first
 * 12 + 16 + 4096 = 4124 bytes, the other 15 12 + 4096 = 4108, each + 4 bytes of ICRC on the wire.
 */
public final class WireLayout {
    /** Which RC operation the message is. */
    public enum Operation {
        SEND(Opcode.RC_SEND_FIRST, Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_LAST, Opcode.RC_SEND_ONLY),
        RDMA_WRITE(Opcode.RC_RDMA_WRITE_FIRST, Opcode.RC_RDMA_WRITE_MIDDLE, Opcode.RC_RDMA_WRITE_LAST,
            Opcode.RC_RDMA_WRITE_ONLY),
        RDMA_READ_RESPONSE(Opcode.RC_RDMA_READ_RESPONSE_FIRST, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE,
            Opcode.RC_RDMA_READ_RESPONSE_LAST, Opcode.RC_RDMA_READ_RESPONSE_ONLY);

        private final int first;
        private final int middle;
        private final int last;
        private final int only;

        Operation(int first, int middle, int last, int only) {
            this.first = first;
            this.middle = middle;
            this.last = last;
            this.only = only;
        }
    }

    /** An RC ACK: BTH + AETH. */
    public static final int ACK_LENGTH = headerLength(Opcode.RC_ACKNOWLEDGE);
    /** An RDMA READ request: BTH + RETH. */
    public static final int READ_REQUEST_LENGTH = headerLength(Opcode.RC_RDMA_READ_REQUEST);
    /** An atomic request (FETCH_ADD or COMPARE_SWAP): BTH + AtomicETH. */
    public static final int ATOMIC_REQUEST_LENGTH = headerLength(Opcode.RC_FETCH_ADD);
    /** An ATOMIC ACKNOWLEDGE: BTH + AETH + AtomicAckETH. */
    public static final int ATOMIC_ACK_LENGTH = headerLength(Opcode.RC_ATOMIC_ACKNOWLEDGE);

    private WireLayout() {
    }

    /** Packets of a message of {@code size} bytes at path MTU {@code mtu}. */
    public static int packets(long size, int mtu) {
        return (int) Math.max(1, (size + mtu - 1) / mtu);
    }

    /** Length (BTH to pad, no ICRC) of packet {@code index} of a message of {@code op}. */
    public static int packetLength(Operation op, long size, int mtu, int index) {
        int n = packets(size, mtu);
        int opcode = n == 1 ? op.only : index == 0 ? op.first : index == n - 1 ? op.last : op.middle;
        int payload = (int) Math.min(mtu, size - (long) index * mtu);
        return headerLength(opcode) + RoceV2.paddedLength(Math.max(0, payload));
    }

    /** Every packet length of one message, in order. */
    public static int[] packetLengths(Operation op, long size, int mtu) {
        int[] lengths = new int[packets(size, mtu)];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = packetLength(op, size, mtu, i);
        }
        return lengths;
    }

    private static int headerLength(int opcode) {
        return OpcodeTable.get(opcode).headerLength();
    }
}
