package io.jroce.tests.qp;

import io.jroce.tests.qp.RcTransitionTable.Rule;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.VerbsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every (current, next) pair of RC QP states against {@link RcTransitionTable}: legal transitions
 * succeed with exactly their required attributes, illegal ones throw InvalidStateException, and a
 * legal one with a required attribute missing or a foreign attribute present throws
 * InvalidAttributeException and leaves the QP where it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QpStateMachineTest {
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

    /** Each state reachable by an RC QP, with each of the seven states as target (6 x 7 pairs). */
    static Stream<Arguments> everyPair() {
        List<Arguments> out = new ArrayList<>();
        for (QpState from : RcTransitionTable.REACHABLE) {
            for (QpState to : QpState.values()) {
                out.add(Arguments.of(from, to, RcTransitionTable.find(from, to).isPresent() ? "legal" : "illegal"));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} ({2})")
    @MethodSource("everyPair")
    void transitionWithExactlyTheRequiredAttributes(QpState from, QpState to, String legality) {
        QueuePair qp = bench.qpIn(from);
        try {
            Optional<Rule> rule = RcTransitionTable.find(from, to);
            if (rule.isPresent()) {
                QpAttributes attrs = bench.attrs(to, rule.get().required(), qp);
                qp.modify(attrs);
                assertEquals(to, qp.state(), "state after " + from + "->" + to + " with " + QpAttrMask.describe(attrs.mask()));
                assertEquals(to, qp.query().state(), "query().state() after " + from + "->" + to);
            } else {
                QpAttributes stateOnly = new QpAttributes().state(to);
                assertThrows(InvalidStateException.class, () -> qp.modify(stateOnly),
                    from + "->" + to + " is not in the IBTA table, with STATE alone");
                assertEquals(from, qp.state(), "state after the refused " + from + "->" + to);
                int usual = attributesOfTheUsualWayInto(to);
                if (usual != 0) {
                    QpAttributes withAttrs = bench.attrs(to, usual, qp);
                    assertThrows(InvalidStateException.class, () -> qp.modify(withAttrs),
                        from + "->" + to + " is not in the IBTA table, with " + QpAttrMask.describe(withAttrs.mask()));
                    assertEquals(from, qp.state(), "state after the refused " + from + "->" + to);
                }
            }
        } finally {
            bench.release(qp);
        }
    }

    /** The attributes required on the way RESET->INIT->RTR->RTS into {@code to}, 0 for other states. */
    private static int attributesOfTheUsualWayInto(QpState to) {
        return switch (to) {
            case INIT -> RcTransitionTable.find(QpState.RESET, QpState.INIT).orElseThrow().required();
            case RTR -> RcTransitionTable.find(QpState.INIT, QpState.RTR).orElseThrow().required();
            case RTS -> RcTransitionTable.find(QpState.RTR, QpState.RTS).orElseThrow().required();
            default -> 0;
        };
    }

    static Stream<Arguments> requiredAttributes() {
        List<Arguments> out = new ArrayList<>();
        for (Rule r : RcTransitionTable.reachableRules()) {
            for (int bit : RcTransitionTable.bits(r.required())) {
                out.add(Arguments.of(r, QpAttrMask.describe(bit), bit));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} without {1}")
    @MethodSource("requiredAttributes")
    void missingRequiredAttributeIsRejected(Rule rule, String name, int bit) {
        QueuePair qp = bench.qpIn(rule.from());
        try {
            QpAttributes attrs = bench.attrs(rule.to(), rule.required() & ~bit, qp);
            assertThrows(InvalidAttributeException.class, () -> qp.modify(attrs),
                rule + " requires " + name + "; sent " + QpAttrMask.describe(attrs.mask()));
            assertEquals(rule.from(), qp.state(), "state after the refused " + rule);
            qp.modify(bench.attrs(rule.to(), rule.required(), qp));
            assertEquals(rule.to(), qp.state(), "the refused modify left the QP usable: " + rule + " then succeeds");
        } finally {
            bench.release(qp);
        }
    }

    static Stream<Arguments> foreignAttributes() {
        List<Arguments> out = new ArrayList<>();
        for (Rule r : RcTransitionTable.reachableRules()) {
            for (int bit : RcTransitionTable.SETTABLE) {
                if ((r.allowed() & bit) == 0) {
                    out.add(Arguments.of(r, QpAttrMask.describe(bit), bit));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("foreignAttributes")
    void attributeNeitherRequiredNorOptionalIsRejected(Rule rule, String name, int bit) {
        QueuePair qp = bench.qpIn(rule.from());
        try {
            QpAttributes attrs = bench.attrs(rule.to(), rule.required() | bit, qp);
            assertThrows(InvalidAttributeException.class, () -> qp.modify(attrs),
                name + " is neither required nor optional for " + rule + "; sent " + QpAttrMask.describe(attrs.mask()));
            assertEquals(rule.from(), qp.state(), "state after the refused " + rule);
            qp.modify(bench.attrs(rule.to(), rule.required(), qp));
            assertEquals(rule.to(), qp.state(), "the refused modify left the QP usable: " + rule + " then succeeds");
        } finally {
            bench.release(qp);
        }
    }

    static Stream<Arguments> legalTransitions() {
        return RcTransitionTable.reachableRules().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legalTransitions")
    void everyOptionalAttributeIsAccepted(Rule rule) {
        int settable = 0;
        for (int bit : RcTransitionTable.SETTABLE) {
            settable |= bit;
        }
        QueuePair qp = bench.qpIn(rule.from());
        try {
            QpAttributes attrs = bench.attrs(rule.to(), rule.required() | (rule.optional() & settable), qp);
            qp.modify(attrs);
            assertEquals(rule.to(), qp.state(), rule + " with " + QpAttrMask.describe(attrs.mask()));
        } finally {
            bench.release(qp);
        }
    }

    @Test
    void sqeIsNotEnteredByModifyFromAnyState() {
        for (QpState from : RcTransitionTable.REACHABLE) {
            QueuePair qp = bench.qpIn(from);
            try {
                assertThrows(InvalidStateException.class, () -> qp.modify(new QpAttributes().state(QpState.SQE)),
                    "SQE is entered only by the RNIC (UC/UD send error), never by modify; from " + from);
                assertEquals(from, qp.state());
            } finally {
                bench.release(qp);
            }
        }
    }

    @Test
    void modifyWithoutStateChangesAttributesInTheCurrentState() {
        QueuePair qp = bench.qpIn(QpState.RTS);
        try {
            qp.modify(new QpAttributes().minRnrTimer(5));
            assertEquals(QpState.RTS, qp.state());
            assertEquals(5, qp.query().minRnrTimer(), "RTS->RTS allows MIN_RNR_TIMER");
            assertThrows(InvalidAttributeException.class, () -> qp.modify(new QpAttributes().pathMtu(Mtu.MTU_512)),
                "RTS->RTS does not allow PATH_MTU");
            assertEquals(QpState.RTS, qp.state());
            assertEquals(Mtu.MTU_1024, qp.query().pathMtu(), "the refused PATH_MTU was not applied");
        } finally {
            bench.release(qp);
        }
        QueuePair init = bench.qpIn(QpState.INIT);
        try {
            init.modify(new QpAttributes().accessFlags(AccessFlags.REMOTE_READ));
            assertEquals(QpState.INIT, init.state());
            assertEquals(AccessFlags.REMOTE_READ, init.query().accessFlags(), "INIT->INIT allows ACCESS_FLAGS");
        } finally {
            bench.release(init);
        }
    }

    @Test
    void matchingCurrentStateIsAcceptedWhereTheTableAllowsIt() {
        QueuePair qp = bench.qpIn(QpState.RTR);
        try {
            QpAttributes attrs = bench.attrs(QpState.RTS,
                RcTransitionTable.find(QpState.RTR, QpState.RTS).orElseThrow().required(), qp).currentState(QpState.RTR);
            qp.modify(attrs);
            assertEquals(QpState.RTS, qp.state());
        } finally {
            bench.release(qp);
        }
    }

    @Test
    void wrongCurrentStateIsRefused() {
        QueuePair qp = bench.qpIn(QpState.RTS);
        try {
            VerbsException e = assertThrows(VerbsException.class,
                () -> qp.modify(new QpAttributes().state(QpState.RTS).currentState(QpState.SQD)),
                "CUR_STATE says SQD but the QP is in RTS");
            assertTrue(e instanceof InvalidStateException || e instanceof InvalidAttributeException,
                "a wrong CUR_STATE is an invalid state or attribute, got " + e);
            assertEquals(QpState.RTS, qp.state());
        } finally {
            bench.release(qp);
        }
    }

    @Test
    void queryReturnsTheAttributesThatWereSet() {
        QueuePair qp = bench.newQp();
        try {
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1)
                .accessFlags(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC));
            qp.modify(new QpAttributes().state(QpState.RTR).addressVector(bench.node.addressTo(bench.node))
                .pathMtu(Mtu.MTU_2048).destQpNum(0x00fedc).rqPsn(0xabcdef).maxDestRdAtomic(1).minRnrTimer(17));
            qp.modify(new QpAttributes().state(QpState.RTS).timeout(18).retryCount(6).rnrRetry(5)
                .sqPsn(0x123abc).maxRdAtomic(1));
            QpAttributes q = qp.query();
            assertEquals(QpState.RTS, q.state());
            assertEquals(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC, q.accessFlags(), "access flags");
            assertEquals(Mtu.MTU_2048, q.pathMtu(), "path MTU");
            assertEquals(0x00fedc, q.destQpNum(), "dest QPN");
            assertEquals(0xabcdef, q.rqPsn(), "rq_psn");
            assertEquals(0x123abc, q.sqPsn(), "sq_psn");
            assertEquals(17, q.minRnrTimer(), "min_rnr_timer");
            assertEquals(18, q.timeout(), "timeout");
            assertEquals(6, q.retryCount(), "retry_cnt");
            assertEquals(5, q.rnrRetry(), "rnr_retry");
            assertEquals(1, q.maxRdAtomic(), "max_rd_atomic");
            assertEquals(1, q.maxDestRdAtomic(), "max_dest_rd_atomic");
            assertEquals(1, q.portNum(), "port");
            assertEquals(bench.node.gid(), q.addressVector().destGid(), "AV dgid");
            assertEquals(bench.node.port(), q.addressVector().udpPort(), "AV UDP port");
            assertEquals(bench.node.gidIndex(), q.addressVector().sgidIndex(), "AV sgid_index");
        } finally {
            bench.release(qp);
        }
    }

    @Test
    void aQpResetFromRtsCanBeConnectedAgain() {
        QueuePair qp = bench.qpIn(QpState.RTS);
        try {
            qp.modify(new QpAttributes().state(QpState.RESET));
            assertEquals(QpState.RESET, qp.state());
            bench.toRts(qp);
            assertEquals(QpState.RTS, qp.state());
            qp.modify(new QpAttributes().state(QpState.ERR));
            qp.modify(new QpAttributes().state(QpState.RESET));
            bench.toRts(qp);
            assertEquals(QpState.RTS, qp.state());
        } catch (VerbsException e) {
            fail("RESET must make the QP reusable: " + e, e);
        } finally {
            bench.release(qp);
        }
    }
}
