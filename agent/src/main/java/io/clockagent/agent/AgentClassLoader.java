package io.clockagent.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Loads the agent's internals apart from the application, in an unnamed module of their own: the access the agent
 * opens to itself (to define the cached clock in {@code java.lang}) is then opened to nobody else, and application
 * code can neither name the internals nor find a path to the ticker's write side. Parallel capable.
 *
 * <p>A named module in a layer of its own would add nothing: a JVM that opens {@code java.lang} to the application
 * exposes the clock's own fields anyway, and resolving a layer costs startup time. Bytes are read from the agent jar
 * directly, which is cheaper per class than going through jar URLs. (The costs: benchmarks/README.md, "What the
 * agent's startup avoids".)
 */
final class AgentClassLoader extends ClassLoader {

    /** Only the internals are loaded here; everything else comes from the platform loader, the JDK. */
    private static final String INTERNALS = "io.clockagent.agent.internal.";

    static {
        registerAsParallelCapable();
    }

    private final JarFile agentJar;
    /** The jar as the internals' code source: the native start tells the C half where the agent's Java side is. */
    private final ProtectionDomain jarDomain;

    private AgentClassLoader(JarFile agentJar, URL location) {
        super("clock-agent", ClassLoader.getPlatformClassLoader());
        this.agentJar = agentJar;
        jarDomain = new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null, this, null);
    }

    /**
     * A loader over the jar that holds {@code entryClass}. The jar stays open for the life of the JVM. Declared as a
     * {@code ClassLoader}, so that verifying a caller loads this class only where the caller runs this method.
     */
    static ClassLoader over(Class<?> entryClass) throws IOException, URISyntaxException {
        URL location = entryClass.getProtectionDomain().getCodeSource().getLocation();
        return new AgentClassLoader(new JarFile(new File(location.toURI()), false), location);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!name.startsWith(INTERNALS)) {
            throw new ClassNotFoundException(name);
        }
        try (InputStream in = getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length, jarDomain);
        } catch (IOException unreadable) {
            throw new ClassNotFoundException(name, unreadable);
        }
    }

    @Override
    public InputStream getResourceAsStream(String name) {
        ZipEntry entry = agentJar.getEntry(name);
        try {
            return entry == null ? null : agentJar.getInputStream(entry);
        } catch (IOException unreadable) {
            return null;
        }
    }
}
