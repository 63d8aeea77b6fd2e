package io.jroce.tests.qp;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Values outside the range of an attribute (IBTA Vol. 1 11.2.5.2 and the field widths of chapter 9:
 * 24-bit PSNs and QPNs, 5-bit timeout and RNR timer codes, 3-bit retry counts; the device's
 * max_qp_init_rd_atom and max_qp_rd_atom; the port's GID and P_Key tables) are refused with
 * InvalidAttributeException and leave the QP in its state; the largest legal values are accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QpAttributeRangeTest {
    private QpBench bench;

    @BeforeAll
    void openDevice() {
        bench = QpBench.open();
    }

    @AfterAll
    void closeDevice() {
        if (bench != null) {
            bench.close();
        }
    }

    /** Changes one attribute of an otherwise valid request; the bench supplies device limits. */
    interface Tweak extends BiConsumer<QpAttributes, QpBench> {
    }

    private static Arguments c(String name, QpState from, QpState to, Tweak tweak) {
        return Arguments.of(name, from, to, tweak);
    }

    static Stream<Arguments> outOfRange() {
        final int unknownAccessBit = Integer.lowestOneBit(~AccessFlags.ALL);
        return Stream.of(
            c("access flags with an unknown bit", QpState.RESET, QpState.INIT,
                (a, b) -> a.accessFlags(AccessFlags.REMOTE_WRITE | unknownAccessBit)),
            c("access flags with the top bit", QpState.RESET, QpState.INIT,
                (a, b) -> a.accessFlags(AccessFlags.REMOTE_READ | Integer.MIN_VALUE)),
            c("port 0", QpState.RESET, QpState.INIT, (a, b) -> a.portNum(0)),
            c("port 2 (one port only)", QpState.RESET, QpState.INIT, (a, b) -> a.portNum(2)),
            c("pkey_index past the P_Key table", QpState.RESET, QpState.INIT,
                (a, b) -> a.pkeyIndex(b.node.device().queryPort().pkeyTableLength())),
            c("negative pkey_index", QpState.RESET, QpState.INIT, (a, b) -> a.pkeyIndex(-1)),
            c("INIT->INIT access flags with an unknown bit", QpState.INIT, QpState.INIT,
                (a, b) -> a.accessFlags(unknownAccessBit)),

            c("rq_psn of 25 bits", QpState.INIT, QpState.RTR, (a, b) -> a.rqPsn(1 << 24)),
            c("negative rq_psn", QpState.INIT, QpState.RTR, (a, b) -> a.rqPsn(-1)),
            c("dest QPN of 25 bits", QpState.INIT, QpState.RTR, (a, b) -> a.destQpNum(1 << 24)),
            c("negative dest QPN", QpState.INIT, QpState.RTR, (a, b) -> a.destQpNum(-1)),
            c("min_rnr_timer 32", QpState.INIT, QpState.RTR, (a, b) -> a.minRnrTimer(32)),
            c("negative min_rnr_timer", QpState.INIT, QpState.RTR, (a, b) -> a.minRnrTimer(-1)),
            c("max_dest_rd_atomic above max_qp_rd_atom", QpState.INIT, QpState.RTR,
                (a, b) -> a.maxDestRdAtomic(b.dev.maxQpRdAtom() + 1)),
            c("negative max_dest_rd_atomic", QpState.INIT, QpState.RTR, (a, b) -> a.maxDestRdAtomic(-1)),
            c("no path MTU value", QpState.INIT, QpState.RTR, (a, b) -> a.pathMtu(null)),
            c("sgid_index past the GID table", QpState.INIT, QpState.RTR,
                (a, b) -> a.addressVector(b.node.addressTo(b.node).sgidIndex(b.node.device().gids().size()))),
            c("negative sgid_index", QpState.INIT, QpState.RTR,
                (a, b) -> a.addressVector(b.node.addressTo(b.node).sgidIndex(-1))),
            c("no address vector value", QpState.INIT, QpState.RTR, (a, b) -> a.addressVector(null)),
            c("address vector without a destination GID", QpState.INIT, QpState.RTR,
                (a, b) -> a.addressVector(new AddressVector().sgidIndex(b.node.gidIndex()).udpPort(b.node.port()))),
            c("INIT->RTR access flags with an unknown bit", QpState.INIT, QpState.RTR,
                (a, b) -> a.accessFlags(unknownAccessBit)),

            c("sq_psn of 25 bits", QpState.RTR, QpState.RTS, (a, b) -> a.sqPsn(1 << 24)),
            c("negative sq_psn", QpState.RTR, QpState.RTS, (a, b) -> a.sqPsn(-1)),
            c("timeout 32", QpState.RTR, QpState.RTS, (a, b) -> a.timeout(32)),
            c("negative timeout", QpState.RTR, QpState.RTS, (a, b) -> a.timeout(-1)),
            c("retry_cnt 8", QpState.RTR, QpState.RTS, (a, b) -> a.retryCount(8)),
            c("negative retry_cnt", QpState.RTR, QpState.RTS, (a, b) -> a.retryCount(-1)),
            c("rnr_retry 8", QpState.RTR, QpState.RTS, (a, b) -> a.rnrRetry(8)),
            c("negative rnr_retry", QpState.RTR, QpState.RTS, (a, b) -> a.rnrRetry(-1)),
            c("max_rd_atomic above max_qp_init_rd_atom", QpState.RTR, QpState.RTS,
                (a, b) -> a.maxRdAtomic(b.dev.maxQpInitRdAtom() + 1)),
            c("negative max_rd_atomic", QpState.RTR, QpState.RTS, (a, b) -> a.maxRdAtomic(-1)),
            c("RTR->RTS min_rnr_timer 32", QpState.RTR, QpState.RTS, (a, b) -> a.minRnrTimer(32)),

            c("RTS->RTS min_rnr_timer 32", QpState.RTS, QpState.RTS, (a, b) -> a.minRnrTimer(32)),
            c("RTS->RTS access flags with an unknown bit", QpState.RTS, QpState.RTS,
                (a, b) -> a.accessFlags(unknownAccessBit)),

            c("SQD->SQD timeout 32", QpState.SQD, QpState.SQD, (a, b) -> a.timeout(32)),
            c("SQD->SQD retry_cnt 8", QpState.SQD, QpState.SQD, (a, b) -> a.retryCount(8)),
            c("SQD->SQD rnr_retry 8", QpState.SQD, QpState.SQD, (a, b) -> a.rnrRetry(8)),
            c("SQD->SQD max_rd_atomic above max_qp_init_rd_atom", QpState.SQD, QpState.SQD,
                (a, b) -> a.maxRdAtomic(b.dev.maxQpInitRdAtom() + 1)),
            c("SQD->SQD max_dest_rd_atomic above max_qp_rd_atom", QpState.SQD, QpState.SQD,
                (a, b) -> a.maxDestRdAtomic(b.dev.maxQpRdAtom() + 1)),
            c("SQD->SQD sgid_index past the GID table", QpState.SQD, QpState.SQD,
                (a, b) -> a.addressVector(b.node.addressTo(b.node).sgidIndex(b.node.device().gids().size()))),
            c("SQD->SQD port 2", QpState.SQD, QpState.SQD, (a, b) -> a.portNum(2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRange")
    void outOfRangeValueIsRefused(String name, QpState from, QpState to, Tweak tweak) {
        QueuePair qp = bench.qpIn(from);
        try {
            QpAttributes attrs = bench.attrs(to, RcTransitionTable.find(from, to).orElseThrow().required(), qp);
            tweak.accept(attrs, bench);
            assertThrows(InvalidAttributeException.class, () -> qp.modify(attrs), name + " in " + from + "->" + to);
            assertEquals(from, qp.state(), "state after the refused " + from + "->" + to);
        } finally {
            bench.release(qp);
        }
    }

    static Stream<Arguments> largestLegalValues() {
        return Stream.of(
            c("every known access flag", QpState.RESET, QpState.INIT, (a, b) -> a.accessFlags(AccessFlags.ALL)),
            c("no access flag", QpState.RESET, QpState.INIT, (a, b) -> a.accessFlags(0)),
            c("rq_psn 0xffffff", QpState.INIT, QpState.RTR, (a, b) -> a.rqPsn(0xffffff)),
            c("rq_psn 0", QpState.INIT, QpState.RTR, (a, b) -> a.rqPsn(0)),
            c("min_rnr_timer 31", QpState.INIT, QpState.RTR, (a, b) -> a.minRnrTimer(31)),
            c("min_rnr_timer 0", QpState.INIT, QpState.RTR, (a, b) -> a.minRnrTimer(0)),
            c("max_dest_rd_atomic = max_qp_rd_atom", QpState.INIT, QpState.RTR,
                (a, b) -> a.maxDestRdAtomic(b.dev.maxQpRdAtom())),
            c("max_dest_rd_atomic 0", QpState.INIT, QpState.RTR, (a, b) -> a.maxDestRdAtomic(0)),
            c("path MTU 256", QpState.INIT, QpState.RTR, (a, b) -> a.pathMtu(Mtu.MTU_256)),
            c("path MTU 512", QpState.INIT, QpState.RTR, (a, b) -> a.pathMtu(Mtu.MTU_512)),
            c("path MTU 2048", QpState.INIT, QpState.RTR, (a, b) -> a.pathMtu(Mtu.MTU_2048)),
            c("path MTU 4096", QpState.INIT, QpState.RTR, (a, b) -> a.pathMtu(Mtu.MTU_4096)),
            c("last sgid_index", QpState.INIT, QpState.RTR,
                (a, b) -> a.addressVector(b.node.addressTo(b.node).sgidIndex(b.node.device().gids().size() - 1))),
            c("sq_psn 0xffffff", QpState.RTR, QpState.RTS, (a, b) -> a.sqPsn(0xffffff)),
            c("timeout 31", QpState.RTR, QpState.RTS, (a, b) -> a.timeout(31)),
            c("timeout 0 (infinite)", QpState.RTR, QpState.RTS, (a, b) -> a.timeout(0)),
            c("retry_cnt 7", QpState.RTR, QpState.RTS, (a, b) -> a.retryCount(7)),
            c("retry_cnt 0", QpState.RTR, QpState.RTS, (a, b) -> a.retryCount(0)),
            c("rnr_retry 7 (infinite)", QpState.RTR, QpState.RTS, (a, b) -> a.rnrRetry(7)),
            c("rnr_retry 0", QpState.RTR, QpState.RTS, (a, b) -> a.rnrRetry(0)),
            c("max_rd_atomic = max_qp_init_rd_atom", QpState.RTR, QpState.RTS,
                (a, b) -> a.maxRdAtomic(b.dev.maxQpInitRdAtom())),
            c("max_rd_atomic 0", QpState.RTR, QpState.RTS, (a, b) -> a.maxRdAtomic(0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("largestLegalValues")
    void boundaryValueIsAccepted(String name, QpState from, QpState to, Tweak tweak) {
        QueuePair qp = bench.qpIn(from);
        try {
            QpAttributes attrs = bench.attrs(to, RcTransitionTable.find(from, to).orElseThrow().required(), qp);
            tweak.accept(attrs, bench);
            qp.modify(attrs);
            assertEquals(to, qp.state(), name + " in " + from + "->" + to);
        } finally {
            bench.release(qp);
        }
    }
}
