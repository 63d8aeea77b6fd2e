/**
 * The verbs API of jroce: {@link io.jroce.verbs} (devices, queue pairs, memory, completions, modelled
 * on libibverbs), {@link io.jroce.verbs.cm} (RDMA connection management, modelled on librdmacm) and
 * {@link io.jroce.verbs.exchange} (what programs exchange to connect without the RDMA CM).
 * These packages are the public, stable API (docs/versioning.md); the module needs nothing but
 * {@code java.base}. The implementation ({@code io.jroce.rnic}) opens the devices; it alone gets
 * {@code io.jroce.verbs.spi} (filling work completions), which is not API. The RNIC and the benchmarks
 * are automatic modules, unknown while this one compiles: hence the suppressed "module" lint.
 */
@SuppressWarnings("module")
module io.jroce.verbs {
    exports io.jroce.verbs;
    exports io.jroce.verbs.cm;
    exports io.jroce.verbs.exchange;
    exports io.jroce.verbs.spi to io.jroce.rnic, io.jroce.benchmarks;
}
