/**
 * The README and docs/ quote programs verbatim: these tests keep each quotation identical to the
 * program that examples/ builds and runs, so that what a reader copies compiles and works.
 */
package io.jroce.tests.docs;
