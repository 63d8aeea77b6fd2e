/**
 * What an RNIC implementation needs from the verbs API and an application must not use: filling
 * {@link io.jroce.verbs.WorkCompletion}s. Internal, not part of the public API (docs/versioning.md): the module
 * exports this package only to jroce's RNIC, and its types may change in any release.
 */
package io.jroce.verbs.spi;
