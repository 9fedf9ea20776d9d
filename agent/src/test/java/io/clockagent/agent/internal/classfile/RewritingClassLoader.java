package io.clockagent.agent.internal.classfile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Loads the test fixtures child-first through a {@link CallSiteRewriter}, as the JVM would with the agent on, with
 * {@code FixedClock} as the redirect target. Classes it is given as bytes are defined as they are.
 */
public final class RewritingClassLoader extends ClassLoader {

    public static final String FIXTURES = "io.clockagent.agent.internal.fixtures.";
    public static final String FIXED_CLOCK = "io/clockagent/agent/internal/fixtures/FixedClock";
    /** The clock methods redirected by default: the library clocks. */
    public static final ClockMethods LIBRARY_CLOCKS = ClockMethods.libraryClocksAnd(List.of());
    /** A clock method of the service's own, as {@code clocks=g.OwnClock.now} names it; no class declares it. */
    public static final ClockMethod OWN_CLOCK = new ClockMethod("g/OwnClock", "now");
    /** The library clocks and {@link #OWN_CLOCK}, which this loader's rewriter redirects. */
    public static final ClockMethods WITH_OWN_CLOCK = ClockMethods.libraryClocksAnd(List.of(OWN_CLOCK));

    private final CallSiteRewriter rewriter = new CallSiteRewriter(FIXED_CLOCK, WITH_OWN_CLOCK);
    private final Map<String, byte[]> generated;

    RewritingClassLoader(Map<String, byte[]> generated) {
        super("rewriting-test-loader", RewritingClassLoader.class.getClassLoader());
        this.generated = generated;
    }

    RewritingClassLoader() {
        this(Map.of());
    }

    public static byte[] originalBytes(String binaryName) {
        try (InputStream in = RewritingClassLoader.class.getClassLoader()
                .getResourceAsStream(binaryName.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IllegalArgumentException("no class file for " + binaryName);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                byte[] bytes = generated.get(name);
                if (bytes == null && name.startsWith(FIXTURES) && !name.equals(FIXED_CLOCK.replace('/', '.'))) {
                    bytes = originalBytes(name);
                }
                if (bytes == null) {
                    return super.loadClass(name, resolve);
                }
                byte[] rewritten = rewriter.rewrite(bytes, false);
                byte[] defined = rewritten == null ? bytes : rewritten;
                loaded = defineClass(name, defined, 0, defined.length);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
