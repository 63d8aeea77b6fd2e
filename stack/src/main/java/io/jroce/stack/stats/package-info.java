/** Device counters: rxe's hw_counters names, byte counters and one counter per drop reason. */
package io.jroce.stack.stats;
