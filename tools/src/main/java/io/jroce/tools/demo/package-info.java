/**
 * {@code jroce demo}: two soft RNICs on loopback, one RC queue pair each, run every RC operation at
 * several message sizes and check every byte, immediate and atomic value that arrives.
 */
package io.jroce.tools.demo;
