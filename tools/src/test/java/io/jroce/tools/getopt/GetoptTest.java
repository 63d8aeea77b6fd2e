package io.jroce.tools.getopt;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jroce.tools.UsageException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** getopt_long's syntax, as seen by the handlers: each call as "spelling=value" in order. */
class GetoptTest {
    private final List<String> calls = new ArrayList<>();

    private List<OptionSpec> table() {
        return List.of(
            OptionSpec.value('s', "size", this::record),
            OptionSpec.value('i', "iters", this::record),
            OptionSpec.value(NO_SHORT, "ib-dev", this::record),
            OptionSpec.flag('c', "chk", () -> calls.add("-c")),
            OptionSpec.flag('e', "events", () -> calls.add("-e")),
            OptionSpec.optional('o', "opt", this::record),
            OptionSpec.refused('R', "rdma_cm", "no RDMA CM"));
    }

    private void record(String spelling, String value) {
        calls.add(spelling + "=" + value);
    }

    private List<String> parse(String... args) throws UsageException {
        new Getopt(table(), (o, operand) -> calls.add("operand " + operand)).parse(List.of(args));
        return calls;
    }

    private String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void shortClustersValuesAttachedOrNextAndOperandsAnywhere() throws UsageException {
        assertEquals(List.of("operand host", "-c", "-e", "-s=1024", "-s=7", "-c", "-i=-5", "operand -"),
            parse("host", "-ces1024", "-s", "7", "-ci", "-5", "-"));
    }

    @Test
    void longNamesWithEqualsOrNextArgumentAndUnambiguousPrefixes() throws UsageException {
        assertEquals(List.of("--size=1", "--size=2", "--iters=3", "--ib-dev=rxe0", "-e"),
            parse("--size=1", "--size", "2", "--it", "3", "--ib=rxe0", "--ev"));
    }

    @Test
    void doubleDashEndsTheOptions() throws UsageException {
        assertEquals(List.of("-c", "operand -s", "operand --chk"), parse("-c", "--", "-s", "--chk"));
    }

    @Test
    void optionalArgumentsAreOnlyTakenAttached() throws UsageException {
        assertEquals(List.of("-o=null", "operand 5", "-o=5", "--opt=null", "--opt=x"),
            parse("-o", "5", "-o5", "--opt", "--opt=x"));
    }

    @Test
    void errorsNameTheOption() {
        assertEquals("unknown option '-x'", error("-cx"));
        assertEquals("unknown option '--frob'", error("--frob=1"));
        assertEquals("option '--i' is ambiguous; possibilities: '--iters' '--ib-dev'", error("--i", "1"));
        assertEquals("--chk takes no value", error("--chk=1"));
        assertEquals("--size needs a value", error("--size"));
        assertEquals("-s needs a value", error("-c", "-s"));
        assertEquals("option -R is not supported by jroce: no RDMA CM", error("-cR"));
        assertEquals("option --rdma_cm is not supported by jroce: no RDMA CM", error("--rdma"));
    }

    @Test
    void aliasesShareTheirOption() throws UsageException {
        OptionSpec port = OptionSpec.value(NO_SHORT, "udp-port", this::record);
        new Getopt(List.of(port, port.alias("udp")), (o, v) -> { }).parse(List.of("--ud", "1", "--udp", "2"));
        assertEquals(List.of("--udp-port=1", "--udp=2"), calls, "an error names the spelling given");
    }
}
