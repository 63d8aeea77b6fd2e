/**
 * {@code jroce demo}: two soft RNICs on loopback, one RC queue pair each, run every RC operation at
 * several message sizes and check every byte, immediate and atomic value that arrives.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.demo;
