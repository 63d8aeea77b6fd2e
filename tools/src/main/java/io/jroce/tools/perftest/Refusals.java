package io.jroce.tools.perftest;

import io.jroce.tools.ArgCursor;
import io.jroce.tools.UsageException;
import java.util.Map;

/**
 * perftest options the twins do not honour. Each is refused with what it is and why, rather than
 * ignored: an ignored option would make a run that looks like perftest's but measures something
 * else.
 */
final class Refusals {
    private static final Map<String, String> REFUSED = Map.ofEntries(
        Map.entry("-R", "rdma_cm connection (-R/--rdma_cm): jroce has no RDMA CM in the tools; use the TCP exchange"),
        Map.entry("--rdma_cm", "rdma_cm connection (-R/--rdma_cm): jroce has no RDMA CM in the tools"),
        Map.entry("-z", "rdma_cm data exchange (-z/--comm_rdma_cm): jroce exchanges over TCP only"),
        Map.entry("--comm_rdma_cm", "rdma_cm data exchange (-z/--comm_rdma_cm): jroce exchanges over TCP only"),
        Map.entry("-e", "CQ events (-e/--events): the twins poll"),
        Map.entry("--events", "CQ events (-e/--events): the twins poll"),
        Map.entry("-g", "multicast (-g/--mcg): jroce has no multicast"),
        Map.entry("--mcg", "multicast (-g/--mcg): jroce has no multicast"),
        Map.entry("-M", "multicast (-M/--MGID): jroce has no multicast"),
        Map.entry("-O", "dual port (-O/--dualport): a jroce device has one port"),
        Map.entry("--dualport", "dual port (-O/--dualport): a jroce device has one port"),
        Map.entry("-l", "post list (-l/--post_list): the twins post one work request at a time"),
        Map.entry("--post_list", "post list (-l/--post_list): the twins post one work request at a time"),
        Map.entry("-C", "report in cycles (-C): the twins measure with System.nanoTime, not CPU cycles"),
        Map.entry("-H", "latency histogram (-H): not implemented"),
        Map.entry("-U", "unsorted latencies (-U): not implemented"),
        Map.entry("-T", "TOS (-T): only valid with rdma_cm, which jroce's tools do not use"),
        Map.entry("-L", "hop limit (-L): only valid for Raw Ethernet QPs"),
        Map.entry("-w", "BW limit (-w/--limit_bw): not implemented"),
        Map.entry("-y", "message rate limit (-y/--limit_msgrate): not implemented"),
        Map.entry("-X", "completion vector (-X): needs CQ events, which the twins do not use"),
        Map.entry("-W", "hardware counters (-W): not implemented"),
        Map.entry("-v", "MAC forwarding (-v): Raw Ethernet only"),
        Map.entry("--use_cuda", "CUDA memory (--use_cuda): jroce registers host memory only"),
        Map.entry("--use_cuda_bus_id", "CUDA memory (--use_cuda_bus_id): jroce registers host memory only"),
        Map.entry("--use_rocm", "ROCm memory (--use_rocm): jroce registers host memory only"),
        Map.entry("--mmap", "mmap'd buffers (--mmap): jroce allocates registered memory itself"),
        Map.entry("--odp", "on-demand paging (--odp): jroce has none"),
        Map.entry("--use_hugepages", "huge pages (--use_hugepages): jroce allocates registered memory itself"),
        Map.entry("--use-srq", "SRQ (--use-srq): not implemented in the twins"),
        Map.entry("--run_infinitely", "run infinitely (--run_infinitely): not implemented; use -D"),
        Map.entry("--report-both", "--report-both: not implemented"),
        Map.entry("--rate_limit", "rate limiting (--rate_limit): not implemented"),
        Map.entry("--burst_size", "rate limiting (--burst_size): not implemented"),
        Map.entry("--dont_xchg_versions", "--dont_xchg_versions: the twins always exchange versions"),
        Map.entry("--ipv6", "--ipv6: pick the GID with -x (one per --bind address)"),
        Map.entry("--out_json", "JSON output (--out_json): not implemented"),
        Map.entry("--output", "--output: not implemented; the twins print the full report"),
        Map.entry("--cpu_util", "--cpu_util: not implemented"),
        Map.entry("--perform_warm_up", "--perform_warm_up: not implemented"),
        Map.entry("--latency_gap", "--latency_gap: not implemented"),
        Map.entry("--retry_count", "--retry_count: not implemented"),
        Map.entry("--pkey_index", "--pkey_index: jroce has the default P_Key only"),
        Map.entry("--inline_recv", "--inline_recv: not implemented"),
        Map.entry("--flow_label", "--flow_label: not implemented"),
        Map.entry("--force-link", "--force-link: a jroce port is always Ethernet"));

    private Refusals() {
    }

    /** The error for an option jroce does not take: why, when perftest has it; else "unknown". */
    static UsageException refusedOrUnknown(String option) {
        String why = REFUSED.get(option);
        if (why == null) {
            return ArgCursor.unknown(option);
        }
        return new UsageException("option " + option + " is not supported by jroce: " + why);
    }
}
