package io.jroce.tools.cmtime;

/** cmtime's timed steps ({@code enum step}), in its order, with the names its table prints. */
enum Step {
    CREATE_ID("create id"),
    BIND("bind addr"),
    RESOLVE_ADDR("resolve addr"),
    RESOLVE_ROUTE("resolve route"),
    CREATE_QP("create qp"),
    CONNECT("connect"),
    DISCONNECT("disconnect"),
    DESTROY("destroy");

    final String label;

    Step(String label) {
        this.label = label;
    }
}
