package io.clockagent.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs a test once per JDK in {@link Jdks#TESTED}, passed as its {@code int} parameter; the test resolves it with
 * {@link Jdks#require}, which reports the run as skipped where that JDK is not installed.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "on JDK {0}")
@ValueSource(ints = {Jdks.JDK_11, Jdks.JDK_17, Jdks.JDK_21, Jdks.JDK_25})
public @interface OnEachJdk {
}
