/**
 * Bytes allocated per operation on every thread, in the steady state of the perftest twins: the
 * measurement ({@link io.jroce.tests.alloc.AllocationRun}, which can also record where the bytes
 * come from with JFR) and the bound it must meet.
 */
package io.jroce.tests.alloc;
