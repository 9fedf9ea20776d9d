package io.clockagent.bench.classheavy;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A program whose whole work is class loading: it loads and links every class of the jars named on its command line,
 * first in the application class loader (the jars must also be on the class path) and then in three fresh
 * {@link URLClassLoader}s, each of which defines its own copy. With tomcat-embed-core, its annotations API and h2
 * that is about 10,400 class definitions.
 *
 * <p>Each class is loaded with {@code Class.forName(name, false, loader)}, which does not initialize it, and then
 * linked (verified and prepared, still not initialized) by {@link Class#getDeclaredFields()}: HotSpot links a class
 * before it reflects on its members. Classes that need an absent optional dependency (Lucene, OSGi, javax.servlet
 * and the like) fail to load or link; they are counted, and fail the same way with and without an agent.
 *
 * <p>Prints one line, {@code classes=... definitions=... failures=... nanos=...}, which the startup runner parses.
 * Single-threaded.
 */
public final class ClassHeavyProgram {

    static final int FRESH_LOADERS = 3;

    private ClassHeavyProgram() {
    }

    public static void main(String[] args) throws IOException {
        long startNanos = System.nanoTime();
        if (args.length == 0) {
            System.err.println("usage: java -cp benchmarks.jar:JAR... " + ClassHeavyProgram.class.getName() + " JAR...");
            System.exit(2);
        }
        List<String> classNames = new ArrayList<>();
        URL[] urls = new URL[args.length];
        for (int i = 0; i < args.length; i++) {
            classNames.addAll(classNamesIn(Path.of(args[i])));
            urls[i] = toUrl(Path.of(args[i]));
        }

        LoadCount total = loadAndLink(classNames, ClassHeavyProgram.class.getClassLoader());
        for (int i = 0; i < FRESH_LOADERS; i++) {
            // The platform loader as parent: delegating to the application loader would find its copies instead.
            try (URLClassLoader fresh = new URLClassLoader("fresh-" + i, urls, ClassLoader.getPlatformClassLoader())) {
                total = total.plus(loadAndLink(classNames, fresh));
            }
        }
        long elapsedNanos = System.nanoTime() - startNanos;
        System.out.println("classes=" + classNames.size() + " loaders=" + (FRESH_LOADERS + 1)
                + " definitions=" + total.definitions + " failures=" + total.failures + " nanos=" + elapsedNanos);
    }

    private static LoadCount loadAndLink(List<String> classNames, ClassLoader loader) {
        int definitions = 0;
        int failures = 0;
        for (String name : classNames) {
            try {
                Class<?> loaded = Class.forName(name, false, loader);
                loaded.getDeclaredFields();
                if (loaded.getClassLoader() == loader) {
                    definitions++;
                }
            } catch (ClassNotFoundException | LinkageError absentDependency) {
                failures++;
            }
        }
        return new LoadCount(definitions, failures);
    }

    /** The binary names of the classes in a jar, in entry order; versioned entries and descriptors are skipped. */
    static List<String> classNamesIn(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String name = classNameOf(entries.nextElement().getName());
                if (name != null) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** The binary class name for a jar entry, or null if the entry is no loadable class. */
    static String classNameOf(String entryName) {
        if (!entryName.endsWith(".class") || entryName.startsWith("META-INF/")
                || entryName.endsWith("module-info.class") || entryName.endsWith("package-info.class")) {
            return null;
        }
        return entryName.substring(0, entryName.length() - ".class".length()).replace('/', '.');
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException impossible) {
            throw new IllegalArgumentException(jar.toString(), impossible);
        }
    }

    /** Classes defined by the asked loader, and classes that could not be loaded or linked. */
    private static final class LoadCount {

        final int definitions;
        final int failures;

        LoadCount(int definitions, int failures) {
            this.definitions = definitions;
            this.failures = failures;
        }

        LoadCount plus(LoadCount other) {
            return new LoadCount(definitions + other.definitions, failures + other.failures);
        }
    }
}
