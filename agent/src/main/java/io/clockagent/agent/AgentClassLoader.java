package io.clockagent.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;

/**
 * Loads the agent's internals apart from the application. Their module is then the agent's own, so the access the
 * agent opens to itself (to define the cached clock) is opened to nobody else, and application code cannot name,
 * reflect on or reach the ticker's write side. Parallel capable.
 */
final class AgentClassLoader extends ClassLoader {

    /** Only these are loaded here; everything else comes from the platform loader, the JDK. */
    private static final String[] OWN_PREFIXES = {"io.clockagent.agent.internal.", "io.clockagent.agent.shaded."};

    static {
        registerAsParallelCapable();
    }

    /** Where the agent jar's bytes are found: the loader that loaded the entry class. */
    private final ClassLoader jarLoader;

    AgentClassLoader(ClassLoader jarLoader) {
        super("clock-agent", ClassLoader.getPlatformClassLoader());
        this.jarLoader = jarLoader;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!isOwn(name)) {
            throw new ClassNotFoundException(name);
        }
        try (InputStream in = jarLoader.getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException unreadable) {
            throw new ClassNotFoundException(name, unreadable);
        }
    }

    private static boolean isOwn(String name) {
        for (String prefix : OWN_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected URL findResource(String name) {
        return jarLoader.getResource(name);
    }
}
