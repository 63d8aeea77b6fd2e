/** The GSI (QP1) of devices over real UDP on loopback: MADs between devices, from a plain socket, and in a capture. */
package io.jroce.tests.gsi;
