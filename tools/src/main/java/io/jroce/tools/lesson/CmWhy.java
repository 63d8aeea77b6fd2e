package io.jroce.tools.lesson;

import io.jroce.stack.mad.CmDreqFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmRepFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Why a connection manager sent a MAD: what the message is in the CM's exchange (IBTA Vol. 1
 * 12.6, its message formats; 12.9.6, the state diagram) and the fields that matter to it.
 */
final class CmWhy {
    private CmWhy() {
    }

    static String of(byte[] mad, boolean fromA) {
        UnsafeBuffer b = new UnsafeBuffer(mad);
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(b, 0);
        String tid = String.format("TID 0x%016x", h.transactionId());
        String gsi = "a MAD of the CM class on QP1, the GSI: UD, so the CM retransmits it itself until answered";
        return switch (h.attributeId()) {
            case MadHeaderFlyweight.ATTR_REQ -> {
                CmReqFlyweight req = new CmReqFlyweight().wrap(b, 0);
                yield String.format("REQ (12.6.5): A asks for a connection to service ID 0x%016x for its QP 0x%06x, "
                    + "which starts at PSN %d; local comm ID 0x%08x, %s; %s; the private data begins with RDMA "
                    + "CM's header (IP addresses and ports)", req.serviceId(), req.localQpn(), req.startingPsn(),
                    req.localCommId(), tid, gsi);
            }
            case MadHeaderFlyweight.ATTR_REP -> {
                CmRepFlyweight rep = new CmRepFlyweight().wrap(b, 0);
                yield String.format("REP (12.6.8): B's application accepted; B's QP 0x%06x starts at PSN %d; it "
                    + "answers comm ID 0x%08x with its own, 0x%08x, and keeps the REQ's %s", rep.localQpn(),
                    rep.startingPsn(), rep.remoteCommId(), rep.localCommId(), tid);
            }
            case MadHeaderFlyweight.ATTR_RTU -> "RTU (12.6.9): ready to use; A has the REP, its QP is ready; "
                + "B's side is established when the RTU arrives";
            case MadHeaderFlyweight.ATTR_REJ -> {
                CmRejFlyweight rej = new CmRejFlyweight().wrap(b, 0);
                yield "REJ (12.6.7) of the REQ, reason " + rej.reason() + ": " + CmScene.rejectReason(rej.reason())
                    + (rej.localCommId() == 0 ? "; comm ID 0: no connection was ever made for it" : "");
            }
            case MadHeaderFlyweight.ATTR_DREQ -> {
                CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(b, 0);
                yield String.format("DREQ (12.6.10): %s disconnects the connection of QP 0x%06x; the %s of the "
                    + "connection", fromA ? "A" : "B", dreq.remoteQpn(), tid);
            }
            case MadHeaderFlyweight.ATTR_DREP -> "DREP (12.6.11): the other side agrees; both sides stay in "
                + "TimeWait, answering repeats, until stray packets of the connection are gone";
            case MadHeaderFlyweight.ATTR_MRA -> "MRA (12.6.6): the request arrived, the answer will take longer";
            default -> String.format("a MAD of attribute 0x%04x", h.attributeId());
        };
    }
}
