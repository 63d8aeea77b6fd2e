/**
 * The verbs API of jroce: {@link io.jroce.verbs} (devices, queue pairs, memory, completions, modelled
 * on libibverbs) and {@link io.jroce.verbs.cm} (RDMA connection management, modelled on librdmacm).
 * Both packages are the public, stable API (docs/versioning.md); the module needs nothing but
 * {@code java.base}. The implementation ({@code io.jroce.rnic}) opens the devices.
 */
module io.jroce.verbs {
    exports io.jroce.verbs;
    exports io.jroce.verbs.cm;
}
