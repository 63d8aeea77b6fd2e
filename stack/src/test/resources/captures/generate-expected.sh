#!/bin/sh
# Regenerates <capture>.expected.tsv from each <capture>.pcap with tshark (Wireshark 4.0.x).
# Run by hand only when a capture is added or changed; the tests read the committed .tsv files.
# naks/ holds the jroce-and-rxe captures of NAKs and retransmissions (README.md); cm/ has no .tsv.
# Columns: tshark's field names, except payload_len, taken from tshark's own dissection (data.len
# for plain payloads, the size of infiniband.payload or of the 256-byte MAD otherwise).
set -eu
cd "$(dirname "$0")"
for pcap in *.pcap naks/*.pcap; do
  tshark -r "$pcap" -Y 'udp.dstport == 4791' -T fields -E header=y -E separator=/t -E occurrence=f \
    -e frame.number -e udp.length \
    -e infiniband.bth.opcode -e infiniband.bth.se -e infiniband.bth.m -e infiniband.bth.padcnt \
    -e infiniband.bth.tver -e infiniband.bth.p_key -e infiniband.reserved -e infiniband.bth.destqp \
    -e infiniband.bth.a -e infiniband.bth.reserved7 -e infiniband.bth.psn \
    -e infiniband.deth.q_key -e infiniband.deth.srcqp \
    -e infiniband.reth.va -e infiniband.reth.r_key -e infiniband.reth.dmalen \
    -e infiniband.atomiceth.swapdt -e infiniband.atomiceth.cmpdt \
    -e infiniband.aeth.syndrome -e infiniband.aeth.msn \
    -e infiniband.atomicacketh.origremdt -e infiniband.immdt -e infiniband.ieth \
    -e infiniband.invariant.crc \
    -e data.len -e infiniband.payload -e infiniband.mad 2>/dev/null |
  awk 'BEGIN { FS = OFS = "\t" }
       NR == 1 { NF = NF - 3; print $0, "payload_len"; next }
       { n = NF; len = $(n - 2) != "" ? $(n - 2) : length($(n - 1)) > 0 ? length($(n - 1)) / 2 : length($n) / 2
         NF = n - 3; print $0, len }' > "${pcap%.pcap}.expected.tsv"
done
