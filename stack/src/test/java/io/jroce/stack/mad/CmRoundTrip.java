package io.jroce.stack.mad;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Rebuilds a parsed CM MAD field by field with the setters into a zeroed 256-byte buffer: if every
 * field is read and written at the right place, the copy equals the original byte for byte, reserved
 * bits included.
 */
final class CmRoundTrip {
    private final MadHeaderFlyweight inHeader = new MadHeaderFlyweight();
    private final MadHeaderFlyweight outHeader = new MadHeaderFlyweight();
    private final CmReqFlyweight inReq = new CmReqFlyweight();
    private final CmReqFlyweight outReq = new CmReqFlyweight();
    private final CmPathFlyweight inPath = new CmPathFlyweight();
    private final CmPathFlyweight outPath = new CmPathFlyweight();
    private final CmRepFlyweight inRep = new CmRepFlyweight();
    private final CmRepFlyweight outRep = new CmRepFlyweight();
    private final CmRtuFlyweight inRtu = new CmRtuFlyweight();
    private final CmRtuFlyweight outRtu = new CmRtuFlyweight();
    private final CmRejFlyweight inRej = new CmRejFlyweight();
    private final CmRejFlyweight outRej = new CmRejFlyweight();
    private final CmMraFlyweight inMra = new CmMraFlyweight();
    private final CmMraFlyweight outMra = new CmMraFlyweight();
    private final CmDreqFlyweight inDreq = new CmDreqFlyweight();
    private final CmDreqFlyweight outDreq = new CmDreqFlyweight();
    private final CmDrepFlyweight inDrep = new CmDrepFlyweight();
    private final CmDrepFlyweight outDrep = new CmDrepFlyweight();
    private final byte[] scratch = new byte[CmMessageFlyweight.LENGTH];

    /** The MAD at {@code offset} in {@code in}, rebuilt through the getters and setters. */
    byte[] rebuild(UnsafeBuffer in, int offset) {
        byte[] out = new byte[CmMessageFlyweight.LENGTH];
        UnsafeBuffer o = new UnsafeBuffer(out);
        inHeader.wrap(in, offset);
        outHeader.wrap(o, 0).baseVersion(inHeader.baseVersion()).mgmtClass(inHeader.mgmtClass())
            .classVersion(inHeader.classVersion()).method(inHeader.method()).status(inHeader.status())
            .classSpecific(inHeader.classSpecific()).transactionId(inHeader.transactionId())
            .attributeId(inHeader.attributeId()).reserved(inHeader.reserved())
            .attributeModifier(inHeader.attributeModifier());
        CmMessageFlyweight from;
        CmMessageFlyweight to;
        switch (inHeader.attributeId()) {
            case MadHeaderFlyweight.ATTR_REQ -> {
                req(inReq.wrap(in, offset), outReq.wrap(o, 0));
                from = inReq;
                to = outReq;
            }
            case MadHeaderFlyweight.ATTR_REP -> {
                inRep.wrap(in, offset);
                outRep.wrap(o, 0).localCommId(inRep.localCommId()).remoteCommId(inRep.remoteCommId())
                    .localQKey(inRep.localQKey()).localQpn(inRep.localQpn()).localEecn(inRep.localEecn())
                    .startingPsn(inRep.startingPsn()).responderResources(inRep.responderResources())
                    .initiatorDepth(inRep.initiatorDepth()).targetAckDelay(inRep.targetAckDelay())
                    .failoverAccepted(inRep.failoverAccepted()).endToEndFlowControl(inRep.endToEndFlowControl())
                    .rnrRetryCount(inRep.rnrRetryCount()).srq(inRep.srq()).localCaGuid(inRep.localCaGuid());
                from = inRep;
                to = outRep;
            }
            case MadHeaderFlyweight.ATTR_RTU -> {
                inRtu.wrap(in, offset);
                outRtu.wrap(o, 0).localCommId(inRtu.localCommId()).remoteCommId(inRtu.remoteCommId());
                from = inRtu;
                to = outRtu;
            }
            case MadHeaderFlyweight.ATTR_REJ -> {
                inRej.wrap(in, offset);
                outRej.wrap(o, 0).localCommId(inRej.localCommId()).remoteCommId(inRej.remoteCommId())
                    .messageRejected(inRej.messageRejected()).rejectInfoLength(inRej.rejectInfoLength())
                    .reason(inRej.reason());
                UnsafeBuffer ari = new UnsafeBuffer(new byte[CmRejFlyweight.ADDITIONAL_REJECT_INFO_LENGTH]);
                inRej.getAdditionalRejectInfo(ari, 0, CmRejFlyweight.ADDITIONAL_REJECT_INFO_LENGTH);
                outRej.additionalRejectInfo(ari, 0, CmRejFlyweight.ADDITIONAL_REJECT_INFO_LENGTH);
                from = inRej;
                to = outRej;
            }
            case MadHeaderFlyweight.ATTR_MRA -> {
                inMra.wrap(in, offset);
                outMra.wrap(o, 0).localCommId(inMra.localCommId()).remoteCommId(inMra.remoteCommId())
                    .messageMraed(inMra.messageMraed()).serviceTimeout(inMra.serviceTimeout());
                from = inMra;
                to = outMra;
            }
            case MadHeaderFlyweight.ATTR_DREQ -> {
                inDreq.wrap(in, offset);
                outDreq.wrap(o, 0).localCommId(inDreq.localCommId()).remoteCommId(inDreq.remoteCommId())
                    .remoteQpn(inDreq.remoteQpn());
                from = inDreq;
                to = outDreq;
            }
            case MadHeaderFlyweight.ATTR_DREP -> {
                inDrep.wrap(in, offset);
                outDrep.wrap(o, 0).localCommId(inDrep.localCommId()).remoteCommId(inDrep.remoteCommId());
                from = inDrep;
                to = outDrep;
            }
            default -> throw new AssertionError("not a CM connection message: attribute 0x"
                + Integer.toHexString(inHeader.attributeId()));
        }
        from.getPrivateData(scratch, 0, from.privateDataLength());
        to.putPrivateData(scratch, 0, from.privateDataLength());
        return out;
    }

    private void req(CmReqFlyweight in, CmReqFlyweight out) {
        out.localCommId(in.localCommId()).serviceId(in.serviceId()).localCaGuid(in.localCaGuid())
            .localQKey(in.localQKey()).localQpn(in.localQpn()).responderResources(in.responderResources())
            .localEecn(in.localEecn()).initiatorDepth(in.initiatorDepth()).remoteEecn(in.remoteEecn())
            .remoteCmResponseTimeout(in.remoteCmResponseTimeout()).transportServiceType(in.transportServiceType())
            .endToEndFlowControl(in.endToEndFlowControl()).startingPsn(in.startingPsn())
            .localCmResponseTimeout(in.localCmResponseTimeout()).retryCount(in.retryCount())
            .partitionKey(in.partitionKey()).pathMtu(in.pathMtu()).rdcExists(in.rdcExists())
            .rnrRetryCount(in.rnrRetryCount()).maxCmRetries(in.maxCmRetries()).srq(in.srq())
            .extendedTransportType(in.extendedTransportType()).sapSupported(in.sapSupported());
        path(in.primaryPath(inPath), out.primaryPath(outPath));
        path(in.alternatePath(inPath), out.alternatePath(outPath));
    }

    private void path(CmPathFlyweight in, CmPathFlyweight out) {
        byte[] gid = new byte[CmPathFlyweight.GID_LENGTH];
        out.localPortLid(in.localPortLid()).remotePortLid(in.remotePortLid());
        in.getLocalPortGid(gid, 0);
        out.localPortGid(gid, 0);
        in.getRemotePortGid(gid, 0);
        out.remotePortGid(gid, 0);
        out.flowLabel(in.flowLabel()).reservedAfterFlowLabel(in.reservedAfterFlowLabel())
            .packetRate(in.packetRate()).trafficClass(in.trafficClass()).hopLimit(in.hopLimit()).sl(in.sl())
            .subnetLocal(in.subnetLocal()).reservedAfterSubnetLocal(in.reservedAfterSubnetLocal())
            .localAckTimeout(in.localAckTimeout());
    }
}
