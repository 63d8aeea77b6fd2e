/** The {@code jroce} command as the built jar runs it (the tools module's own tests run it from classes). */
package io.jroce.tests.cli;
