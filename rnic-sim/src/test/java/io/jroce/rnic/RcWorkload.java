package io.jroce.rnic;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import io.jroce.rnic.ModelMemory.Region;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WrOpcode;

/**
 * A random sequence of RC operations from one seed, and the memory both sides must end with if
 * each operation executes exactly once, in posted order. "a" is the requester's memory, "b" the
 * responder's. Buffers are spread over several SGEs with
 * gaps between them; sizes cluster around the path MTU and run up to 1 MiB (one message, in one
 * seed of 50; see {@link ReliabilityRun}).
 *
 * <p>The model is exact because RC executes requests in PSN order: a READ sees every earlier
 * WRITE, an atomic returns the value every earlier atomic left. Two things the test avoids,
 * because the verbs leave them undefined: writing a region after a READ of it was posted (a
 * retransmitted READ may read it again) and reusing a source buffer before its WR completes.
 */
final class RcWorkload {
    /** Which operations a scenario mixes. */
    enum Mix {
        SENDS(EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM)),
        WRITES(EnumSet.of(WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM)),
        READS(EnumSet.of(WrOpcode.RDMA_READ)),
        ATOMICS(EnumSet.of(WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.ATOMIC_CMP_AND_SWP)),
        /** The seven RC operations of the issue (not the memory-window and invalidate ones). */
        MIXED(EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM,
            WrOpcode.RDMA_READ, WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.ATOMIC_CMP_AND_SWP));

        final WrOpcode[] opcodes;

        Mix(EnumSet<WrOpcode> opcodes) {
            this.opcodes = opcodes.toArray(new WrOpcode[0]);
        }
    }

    /** Largest message, as the issue asks; a workload has at most one. */
    static final int BIG = 1 << 20;
    /** Offset in B of the counter that only increments by 1 (atomic workloads). */
    final int incrementCounter;
    final Mtu mtu;
    final List<RcOp> ops = new ArrayList<>();
    final List<RcOp.Recv> recvs = new ArrayList<>();
    final ModelMemory a;
    final ModelMemory b;
    /** A's result slots of the fetch-adds of 1 on {@link #incrementCounter}, in posted order. */
    final List<Integer> incrementResults = new ArrayList<>();

    private final Random r;
    private final List<Region> counters = new ArrayList<>();
    /** B regions written by a WRITE and not read since: the only ones a WRITE may overwrite. */
    private final List<Region> writable = new ArrayList<>();

    private RcWorkload(Mix mix, Random r, Mtu bigMtu, Mtu pathMtu) {
        this.r = r;
        this.a = new ModelMemory(r);
        this.b = new ModelMemory(r);
        int m = r.nextInt(10);
        boolean big = bigMtu != null;
        mtu = pathMtu != null ? pathMtu : big ? bigMtu : m == 0 ? Mtu.MTU_256 : m < 5 ? Mtu.MTU_1024 : Mtu.MTU_4096;
        int n = 6 + r.nextInt(20);
        int bigAt = big ? r.nextInt(n) : -1;
        incrementCounter = b.allocate(8, 8).offset();
        b.initLong(incrementCounter, 0);
        int counterCount = 1 + r.nextInt(3);
        for (int i = 0; i < counterCount; i++) {
            counters.add(b.allocate(8, 8));
        }
        for (int i = 0; i < n; i++) {
            WrOpcode op = mix.opcodes[r.nextInt(mix.opcodes.length)];
            if (i == bigAt && op.isAtomic()) {
                op = WrOpcode.RDMA_READ; // the big one needs a data operation
            }
            add(op, i == bigAt ? BIG : size());
        }
    }

    /**
     * @param bigMtu null for an ordinary workload; else the path MTU of a workload with one 1 MiB
     *               message. (A 1 MiB READ at 20% loss is dear: each re-request from the first
     *               missing response resends the rest, so at MTU 1024 it moves some 10^5 packets.)
     */
    static RcWorkload generate(Mix mix, Random r, Mtu bigMtu) {
        return new RcWorkload(mix, r, bigMtu, null);
    }

    /** A workload for the other direction of a connection whose path MTU is already chosen. */
    static RcWorkload otherWay(Mix mix, Random r, Mtu pathMtu) {
        return new RcWorkload(mix, r, null, pathMtu);
    }

    /**
     * Message sizes around the MTU and in multiples of it, so that every MTU costs about as many
     * packets; up to 64 MTUs (256 KiB at 4096) rarely. 1 MiB is added apart.
     */
    private int size() {
        int mtuBytes = mtu.bytes();
        int k = r.nextInt(100);
        if (k < 12) {
            return 0;
        }
        if (k < 22) {
            return 1 + r.nextInt(16);
        }
        if (k < 40) {
            return mtuBytes - 1 + r.nextInt(3) + (r.nextBoolean() ? mtuBytes : 0);
        }
        if (k < 78) {
            return 1 + r.nextInt(4 * mtuBytes);
        }
        if (k < 98) {
            return 1 + r.nextInt(16 * mtuBytes);
        }
        return 16 * mtuBytes + r.nextInt(48 * mtuBytes);
    }

    private void add(WrOpcode op, int len) {
        int index = ops.size();
        switch (op) {
            case SEND, SEND_WITH_IMM -> {
                List<Region> src = split(a, len);
                int slack = r.nextInt(3) == 0 ? r.nextInt(100) : 0;
                List<Region> dst = split(b, len + slack);
                int imm = r.nextInt();
                boolean withImm = op == WrOpcode.SEND_WITH_IMM;
                RcOp.Recv recv = new RcOp.Recv(recvs.size(), dst, WcOpcode.RECV, len, withImm, withImm ? imm : 0);
                recvs.add(recv);
                ops.add(new RcOp(index, op, len, src, -1, imm, 0, 0, recv));
                b.scatter(dst, a.gather(src, len));
            }
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> {
                List<Region> src = split(a, len);
                Region dst = writeDestination(len);
                int imm = r.nextInt();
                RcOp.Recv recv = null;
                if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
                    recv = new RcOp.Recv(recvs.size(), List.of(), WcOpcode.RECV_RDMA_WITH_IMM, len, true, imm);
                    recvs.add(recv);
                }
                ops.add(new RcOp(index, op, len, src, dst.offset(), imm, 0, 0, recv));
                b.scatter(List.of(dst), a.gather(src, len));
            }
            case RDMA_READ -> {
                Region src = readSource(len);
                List<Region> dst = split(a, len);
                ops.add(new RcOp(index, op, len, dst, src.offset(), 0, 0, 0, null));
                a.scatter(dst, b.gather(List.of(src), len));
            }
            case ATOMIC_FETCH_AND_ADD, ATOMIC_CMP_AND_SWP -> addAtomic(index, op);
            default -> throw new IllegalArgumentException("no model for " + op);
        }
    }

    private void addAtomic(int index, WrOpcode op) {
        Region result = a.allocate(8, 8);
        boolean increment = op == WrOpcode.ATOMIC_FETCH_AND_ADD && r.nextBoolean();
        int target = increment ? incrementCounter : counters.get(r.nextInt(counters.size())).offset();
        long current = b.getLong(target);
        long compareAdd;
        long swap = 0;
        if (op == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            compareAdd = increment ? 1 : r.nextLong();
            b.putLong(target, current + compareAdd);
            if (increment) {
                incrementResults.add(result.offset());
            }
        } else {
            // Mostly a compare that succeeds (a re-executed CAS would then fail and be seen), sometimes one that fails.
            compareAdd = r.nextInt(4) == 0 ? current + 1 + r.nextInt(1000) : current;
            swap = r.nextLong();
            if (current == compareAdd) {
                b.putLong(target, swap);
            }
        }
        a.putLong(result.offset(), current);
        ops.add(new RcOp(index, op, 8, List.of(result), target, 0, compareAdd, swap, null));
    }

    private Region writeDestination(int len) {
        if (!writable.isEmpty() && r.nextInt(4) == 0) {
            Region old = writable.get(r.nextInt(writable.size()));
            if (old.length() >= len) {
                return new Region(old.offset(), len); // overwrite: the later WRITE must win
            }
        }
        Region fresh = b.allocate(len, 1);
        writable.add(fresh);
        return fresh;
    }

    private Region readSource(int len) {
        for (int i = 0; i < writable.size() && r.nextInt(3) != 0; i++) {
            Region w = writable.get(r.nextInt(writable.size()));
            if (w.length() >= len) {
                writable.remove(w); // read after write: the READ must see it; no WRITE may follow
                return new Region(w.offset(), len);
            }
        }
        return b.allocate(len, 1);
    }

    /** {@code len} bytes of fresh memory in 1..4 SGEs with gaps between them; none for 0 bytes. */
    private List<Region> split(ModelMemory m, int len) {
        if (len == 0) {
            return List.of();
        }
        int parts = 1 + r.nextInt(Math.min(4, len));
        TreeSet<Integer> cuts = new TreeSet<>();
        while (cuts.size() < parts - 1) {
            cuts.add(1 + r.nextInt(len - 1));
        }
        List<Region> out = new ArrayList<>();
        int from = 0;
        for (int cut : cuts) {
            out.add(m.allocate(cut - from, 1));
            from = cut;
        }
        out.add(m.allocate(len - from, 1));
        return out;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("mtu ").append(mtu.bytes()).append(", ").append(ops.size()).append(" ops:");
        for (RcOp op : ops) {
            sb.append("\n    ").append(op);
        }
        return sb.toString();
    }
}
