/** Classic pcap files: reading captures (tests, tools) and, later, writing what jroce sends and receives. */
package io.jroce.stack.pcap;
