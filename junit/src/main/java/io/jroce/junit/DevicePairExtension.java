package io.jroce.junit;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves a test's {@link DevicePair} parameter (options from {@link DevicePairOptions} on the
 * method, else the class), closes the pair after the test, and when the test throws adds the pair's
 * report (seed, replay hint, packet trace) to the failure as a suppressed exception, so that it
 * appears under the failure in every report.
 *
 * <pre>{@code
 * @ExtendWith(DevicePairExtension.class)
 * class MyTest {
 *     @Test
 *     @DevicePairOptions(seed = 42, loss = 0.05)
 *     void sendArrives(DevicePair pair) throws Exception { ... }
 * }
 * }</pre>
 */
public final class DevicePairExtension implements ParameterResolver, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DevicePairExtension.class);
    private static final String KEY = "pair";

    /** What JUnit's store closes after the test. */
    private record Closing(DevicePair pair) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            pair.close();
        }
    }

    /** The report attached to a failing test. */
    static final class DevicePairReport extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DevicePairReport(String report) {
            super(report, null, false, false);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DevicePair.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        Closing existing = store.get(KEY, Closing.class);
        if (existing != null) {
            return existing.pair(); // a second DevicePair parameter of the same test gets the same pair
        }
        DevicePair pair = DevicePair.open(options(context).orElse(null));
        store.put(KEY, new Closing(pair));
        return pair;
    }

    private static Optional<DevicePairOptions> options(ExtensionContext context) {
        Optional<DevicePairOptions> onMethod = context.getTestMethod()
            .flatMap(m -> AnnotationSupport.findAnnotation((AnnotatedElement) m, DevicePairOptions.class));
        return onMethod.isPresent() ? onMethod
            : context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, DevicePairOptions.class));
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        Closing closing = context.getStore(NAMESPACE).get(KEY, Closing.class);
        if (closing != null) {
            String report = closing.pair().report(64);
            thrown.addSuppressed(new DevicePairReport(report));
            System.err.println(context.getDisplayName() + " failed; " + report);
        }
        throw thrown;
    }
}
