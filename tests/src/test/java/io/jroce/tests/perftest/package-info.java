/** jroce-vs-jroce system tests of the perftest twins ({@code jroce write_bw} and the others). */
package io.jroce.tests.perftest;
