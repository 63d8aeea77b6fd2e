/**
 * Checks of what the build publishes ({@link io.jroce.tests.artifacts.PublishedArtifactsIT}): every
 * artifact in jroce-bom has its jar, sources and Javadoc jars, its JPMS module name and the POM
 * metadata Maven Central requires. Run by failsafe in the {@code verify} phase, after the modules it
 * checks were packaged.
 */
package io.jroce.tests.artifacts;
