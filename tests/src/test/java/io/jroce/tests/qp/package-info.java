/**
 * Queue pair state machine tests for RC, written from the IBTA Vol. 1 rules (10.3.1 QP states,
 * 11.2.5.2 Modify QP: which transitions are legal and which attributes each requires or allows,
 * the table that Linux encodes in {@code ib_modify_qp_is_ok}), not from jroce's implementation:
 * {@link io.jroce.tests.qp.RcTransitionTable} holds that table, and the tests walk every pair of
 * states with it. Also the range of each attribute and which states allow posting.
 */
package io.jroce.tests.qp;
