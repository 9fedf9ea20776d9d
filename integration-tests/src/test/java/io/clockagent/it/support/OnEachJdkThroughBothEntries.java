package io.clockagent.it.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * Runs a test once per JDK in {@link Jdks#TESTED} and {@link AgentEntry}, passed as its {@code int} and
 * {@code AgentEntry} parameters; as with {@link OnEachJdk}, the test resolves the JDK with {@link Jdks#require}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "on JDK {0} through {1}")
@ArgumentsSource(OnEachJdkThroughBothEntries.JdksAndEntries.class)
public @interface OnEachJdkThroughBothEntries {

    /** Every tested JDK with every entry. */
    final class JdksAndEntries implements ArgumentsProvider {
        @Override
        public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
            return Jdks.TESTED.stream().flatMap(jdk -> Stream.of(AgentEntry.values())
                    .map(entry -> Arguments.of(jdk, entry)));
        }
    }
}
