package io.jroce.tests.fuzz;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.core.Gsi;
import io.jroce.stack.mad.MadHeaderFlyweight;

/**
 * One datagram of a fuzz input, after its fix-ups. An input is a sequence of records
 * {@code [control:1][length:2, big-endian][packet:length]} (the packet from the BTH on, without
 * ICRC: the injector appends a valid one; a shorter packet than a BTH is padded with zeros to 12
 * bytes, since the injector needs a whole BTH). The control byte's bits:
 * <ul>
 * <li>0-1: the source address: 1 a stranger, 2 the victim's own, else the peer;</li>
 * <li>2: replace the BTH's destination QP with the victim QP chosen by bits 3-5 (modulo the QP count);</li>
 * <li>6: replace the PSN with that QP's first expected PSN (for a response, the first PSN it sent)
 *     plus the PSN's low byte (signed);</li>
 * <li>7: to QP1 (the GSI), set the DETH's Q_Key to the GSI's and the CM MAD's comm IDs (and a DREQ's
 *     remote QPN) to those the peer uses for the victim's live CM connection chosen by bits 3-5;
 *     on the UD QP set the DETH's Q_Key to the QP's; otherwise set the RETH/AtomicETH R_Key to that
 *     of the victim MR chosen by byte 20 (low 2 bits), and its VA to the MR's start plus the signed
 *     16-bit value in bytes 18-19.</li>
 * </ul>
 * The fix-ups let the fuzzer reach the responder with few mutations; without them the same
 * bytes go through unchanged.
 */
record FuzzedDatagram(byte[] packet, byte[] source, int qpIndex) {
    static final int MAX_DATAGRAMS = 16;
    static final int MIN_LENGTH = 12;

    static List<FuzzedDatagram> parse(byte[] input, Population pop) {
        List<FuzzedDatagram> out = new ArrayList<>();
        int at = 0;
        while (at + 3 <= input.length && out.size() < MAX_DATAGRAMS) {
            int control = input[at] & 0xFF;
            int length = Math.min(((input[at + 1] & 0xFF) << 8) | (input[at + 2] & 0xFF), input.length - at - 3);
            // Shorter than a BTH: padded to one, as the injector computes an ICRC over a whole BTH.
            byte[] packet = Arrays.copyOfRange(input, at + 3, at + 3 + Math.max(length, MIN_LENGTH));
            at += 3 + length;
            int qpIndex = ((control >>> 3) & 7) % Population.QP_COUNT;
            fixUp(packet, control, qpIndex, pop);
            byte[] source = switch (control & 3) {
                case 1 -> pop.strangerAddress;
                case 2 -> pop.victimAddress;
                default -> pop.peerAddress;
            };
            out.add(new FuzzedDatagram(packet, source, qpIndex));
        }
        return out;
    }

    private static void fixUp(byte[] packet, int control, int qpIndex, Population pop) {
        ByteBuffer b = ByteBuffer.wrap(packet);
        if (packet.length < 12) {
            return;
        }
        if ((control & 0x04) != 0) {
            b.putInt(4, (b.getInt(4) & 0xFF000000) | pop.qps.get(qpIndex).qpNum());
        }
        if ((control & 0x40) != 0) {
            int first = isResponse(packet[0] & 0xFF) ? pop.firstSendPsn[qpIndex] : pop.firstRecvPsn[qpIndex];
            int psn = (first + packet[11]) & 0xFFFFFF;
            b.putInt(8, (b.getInt(8) & 0xFF000000) | psn);
        }
        if ((control & 0x80) != 0) {
            if ((b.getInt(4) & 0xFFFFFF) == Gsi.QPN) {
                fixUpCm(b, control, pop);
            } else if (qpIndex == Population.UD) {
                if (packet.length >= 16) {
                    b.putInt(12, Population.QKEY);
                }
            } else if (packet.length >= 24) {
                var mr = pop.mrs.get(packet[20] & 3);
                b.putLong(12, mr.address() + b.getShort(18));
                b.putInt(20, mr.rkey());
            }
        }
    }

    /** BTH 12 + DETH 8: where a MAD to QP1 starts; its comm IDs at 24 and 28, attribute at 16, a DREQ's QPN at 32. */
    private static final int MAD = 20;

    private static void fixUpCm(ByteBuffer b, int control, Population pop) {
        if (b.capacity() >= 16) {
            b.putInt(12, Gsi.Q_KEY);
        }
        if (b.capacity() >= MAD + 36) {
            CmConnection c = pop.cmConnections.get(((control >>> 3) & 7) % pop.cmConnections.size());
            b.putInt(MAD + 24, c.remoteCommId());
            b.putInt(MAD + 28, c.localCommId());
            if ((b.getShort(MAD + 16) & 0xFFFF) == MadHeaderFlyweight.ATTR_DREQ) {
                b.putInt(MAD + 32, (b.getInt(MAD + 32) & 0xFF) | (c.localQpn() << 8));
            }
        }
    }

    int destQp() {
        return packet.length < 8 ? -1 : ByteBuffer.wrap(packet).getInt(4) & 0xFFFFFF;
    }

    int psn() {
        return packet.length < 12 ? -1 : ByteBuffer.wrap(packet).getInt(8) & 0xFFFFFF;
    }

    int opcode() {
        return packet.length < 1 ? -1 : packet[0] & 0xFF;
    }

    /** RDMA READ response, ACKNOWLEDGE or ATOMIC ACKNOWLEDGE: what only a requester takes. */
    boolean isResponse() {
        return isResponse(opcode());
    }

    static boolean isResponse(int opcode) {
        return opcode >= 0x0D && opcode <= 0x12;
    }

    /** An ACKNOWLEDGE whose AETH syndrome is a NAK (IBTA 9.7.5.2.6: syndrome bits 6-5 = 11). */
    boolean isNak() {
        return opcode() == 0x11 && packet.length >= 13 && ((packet[12] >>> 5) & 3) == 3;
    }
}
