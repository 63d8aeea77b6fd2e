package io.jroce.tools.explain;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;

/** An AETH syndrome in words (IBTA Vol. 1 9.3, AETH; NAK codes as handled in 9.7.5.2). */
final class AethText {
    private AethText() {
    }

    /** The syndrome in the stack's words, an RNR NAK's timer with the delay it names. */
    static String syndrome(int syndrome) {
        String words = AethSyndrome.describe(syndrome);
        return AethSyndrome.kind(syndrome) == AethKind.RNR_NAK
            ? words + " = " + Durations.format(AethSyndrome.rnrTimerNs(AethSyndrome.value(syndrome))) : words;
    }

    /** What a fatal NAK tells the requester, or null for ACKs, RNR NAKs and sequence errors. */
    static String consequence(int syndrome) {
        if (AethSyndrome.kind(syndrome) != AethKind.NAK) {
            return null;
        }
        NakCode c = AethSyndrome.nakCode(syndrome);
        if (c == NakCode.PSN_SEQUENCE_ERROR) {
            return null;
        }
        String why = c == null ? "a reserved NAK code" : switch (c) {
            case INVALID_REQUEST -> "the responder refused the request (unsupported opcode, bad length, or no "
                + "resources for a READ/atomic)";
            case REMOTE_ACCESS_ERROR -> "the R_Key, address or access rights did not allow the access";
            case REMOTE_OPERATIONAL_ERROR -> "the responder failed to carry the request out";
            default -> "a Reliable Datagram error";
        };
        return why + ": the requester completes the work request in error and its QP goes to the error state";
    }
}
