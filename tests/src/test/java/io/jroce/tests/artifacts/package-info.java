/**
 * Checks of what the build publishes ({@link io.jroce.tests.artifacts.PublishedArtifactsIT}): every
 * artifact in jroce-bom has its jar, sources and Javadoc jars, its JPMS module name and the POM
 * metadata Maven Central requires. Run by failsafe in the {@code verify} phase, after the modules it
 * checks were packaged. {@link io.jroce.tests.artifacts.ApiReferenceTest} (a unit test) keeps the API
 * reference's excluded packages and modules in step with docs/versioning.md.
 */
package io.jroce.tests.artifacts;
