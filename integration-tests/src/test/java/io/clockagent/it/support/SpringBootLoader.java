package io.clockagent.it.support;

import java.nio.file.Path;

/**
 * The Spring Boot loaders that the tests lay out executable jars with: the current line, which needs Java 17, and the
 * last line that runs on Java 11.
 */
public enum SpringBootLoader {

    SPRING_BOOT_3("clockagent.springBootLoaderJar", "org.springframework.boot.loader.launch.", "LaunchedClassLoader",
            17),
    SPRING_BOOT_2("clockagent.springBoot2LoaderJar", "org.springframework.boot.loader.", "LaunchedURLClassLoader", 8);

    private final String jarProperty;
    private final String launcherPackage;
    private final String classLoaderSimpleName;
    private final int oldestJavaFeature;

    SpringBootLoader(String jarProperty, String launcherPackage, String classLoaderSimpleName, int oldestJavaFeature) {
        this.jarProperty = jarProperty;
        this.launcherPackage = launcherPackage;
        this.classLoaderSimpleName = classLoaderSimpleName;
        this.oldestJavaFeature = oldestJavaFeature;
    }

    /** The newest line that runs on this JDK. */
    public static SpringBootLoader newestFor(Jdk jdk) {
        return jdk.featureVersion() >= SPRING_BOOT_3.oldestJavaFeature ? SPRING_BOOT_3 : SPRING_BOOT_2;
    }

    /** The {@code spring-boot-loader} jar, whose classes go to the root of an executable jar. */
    public Path jar() {
        return BuildOutputs.existingFile(jarProperty);
    }

    /** The {@code Main-Class} of an executable jar. */
    public String jarLauncher() {
        return launcherPackage + "JarLauncher";
    }

    /** The class loader that loads {@code BOOT-INF/classes} and the jars in {@code BOOT-INF/lib}. */
    public String launchedClassLoader() {
        return launcherPackage + classLoaderSimpleName;
    }

    public String launchedClassLoaderSimpleName() {
        return classLoaderSimpleName;
    }
}
