package io.jroce.tools.explain;

/**
 * The extension headers of one packet, each null when its opcode does not carry it (IBTA Vol. 1
 * 9.3). Values as on the wire: 64-bit fields as raw longs, R_Keys as raw ints.
 */
record ExtHeaders(Deth deth, Reth reth, AtomicEth atomicEth, Aeth aeth, Long atomicAck, Integer immDt,
                  Integer ieth) {
    static final ExtHeaders NONE = new ExtHeaders(null, null, null, null, null, null, null);

    record Deth(int qKey, int sourceQp) {
    }

    record Reth(long virtualAddress, int rKey, long dmaLength) {
    }

    record AtomicEth(long virtualAddress, int rKey, long swapAdd, long compare) {
    }

    record Aeth(int syndrome, int msn) {
    }
}
