/**
 * Device counters: rxe's hw_counters names, byte counters and one counter per drop reason.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.stack.stats;
