package io.jroce.tools.perftest;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static io.jroce.tools.getopt.OptionSpec.refused;

import io.jroce.tools.getopt.OptionSpec;
import java.util.List;

/**
 * perftest options the twins do not honour, as rows of their option table. Each is refused with
 * what it is and why, rather than ignored: an ignored option would make a run that looks like
 * perftest's but measures something else.
 */
final class UnsupportedPerftestOptions {
    static final List<OptionSpec> TABLE = List.of(
        refused('z', "comm_rdma_cm", "rdma_cm data exchange with QPs connected without it (-z/--comm_rdma_cm):"
            + " not implemented; -R connects the QPs and exchanges through the RDMA CM"),
        refused('e', "events", "CQ events (-e/--events): the twins poll"),
        refused('g', "mcg", "multicast (-g/--mcg): jroce has no multicast"),
        refused('M', null, "multicast (-M/--MGID): jroce has no multicast"),
        refused('O', "dualport", "dual port (-O/--dualport): a jroce device has one port"),
        refused('l', "post_list", "post list (-l/--post_list): the twins post one work request at a time"),
        refused('C', null, "report in cycles (-C): the twins measure with System.nanoTime, not CPU cycles"),
        refused('H', null, "latency histogram (-H): not implemented"),
        refused('U', null, "unsorted latencies (-U): not implemented"),
        refused('L', null, "hop limit (-L): only valid for Raw Ethernet QPs"),
        refused('w', null, "BW limit (-w/--limit_bw): not implemented"),
        refused('y', null, "message rate limit (-y/--limit_msgrate): not implemented"),
        refused('X', null, "completion vector (-X): needs CQ events, which the twins do not use"),
        refused('W', null, "hardware counters (-W): not implemented"),
        refused('v', null, "MAC forwarding (-v): Raw Ethernet only"),
        refused(NO_SHORT, "use_cuda", "CUDA memory (--use_cuda): jroce registers host memory only"),
        refused(NO_SHORT, "use_cuda_bus_id", "CUDA memory (--use_cuda_bus_id): jroce registers host memory only"),
        refused(NO_SHORT, "use_rocm", "ROCm memory (--use_rocm): jroce registers host memory only"),
        refused(NO_SHORT, "mmap", "mmap'd buffers (--mmap): jroce allocates registered memory itself"),
        refused(NO_SHORT, "odp", "on-demand paging (--odp): jroce has none"),
        refused(NO_SHORT, "use_hugepages", "huge pages (--use_hugepages): jroce allocates registered memory itself"),
        refused(NO_SHORT, "use-srq", "SRQ (--use-srq): not implemented in the twins"),
        refused(NO_SHORT, "run_infinitely", "run infinitely (--run_infinitely): not implemented; use -D"),
        refused(NO_SHORT, "report-both", "--report-both: not implemented"),
        refused(NO_SHORT, "rate_limit", "rate limiting (--rate_limit): not implemented"),
        refused(NO_SHORT, "burst_size", "rate limiting (--burst_size): not implemented"),
        refused(NO_SHORT, "dont_xchg_versions", "--dont_xchg_versions: the twins always exchange versions"),
        refused(NO_SHORT, "ipv6", "--ipv6: pick the GID with -x (one per --bind address)"),
        refused(NO_SHORT, "out_json", "JSON output (--out_json): not implemented"),
        refused(NO_SHORT, "output", "--output: not implemented; the twins print the full report"),
        refused(NO_SHORT, "cpu_util", "--cpu_util: not implemented"),
        refused(NO_SHORT, "perform_warm_up", "--perform_warm_up: not implemented"),
        refused(NO_SHORT, "latency_gap", "--latency_gap: not implemented"),
        refused(NO_SHORT, "retry_count", "--retry_count: not implemented"),
        refused(NO_SHORT, "pkey_index", "--pkey_index: jroce has the default P_Key only"),
        refused(NO_SHORT, "inline_recv", "--inline_recv: not implemented"),
        refused(NO_SHORT, "flow_label", "--flow_label: not implemented"),
        refused(NO_SHORT, "force-link", "--force-link: a jroce port is always Ethernet"));

    private UnsupportedPerftestOptions() {
    }
}
