/**
 * Attacks on a running device over real UDP (issue 11): a {@link io.jroce.tests.security.ForgedPeer}
 * on the victim QP's peer address sends crafted RoCEv2 datagrams with valid ICRCs, and each test
 * checks that the device drops and counts what it must and that legitimate traffic is unharmed.
 */
package io.jroce.tests.security;
