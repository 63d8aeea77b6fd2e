/**
 * The RoCEv2 wire format from the BTH onwards: one flyweight per IBTA transport header, the opcode
 * table that says which headers each opcode carries, and 24-bit PSN arithmetic. Nothing here
 * allocates per packet.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.stack.wire;
