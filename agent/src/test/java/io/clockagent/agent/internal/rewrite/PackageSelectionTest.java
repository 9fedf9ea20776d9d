package io.clockagent.agent.internal.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.agent.internal.options.AgentOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PackageSelectionTest {

    @ParameterizedTest(name = "with ''{0}'', {1} is covered: {2}")
    @CsvSource(delimiter = '|', value = {
        "include=com.acme                         | com/acme/Service             | true",
        "include=com.acme                         | com/acme/web/Handler         | true",
        "include=com.acme                         | com/acme/Service$Inner       | true",
        "include=com.acme                         | com/acmeplus/Service         | false",
        "include=com.acme                         | org/example/Service          | false",
        "include=com.acme                         | Main                         | false",
        "include=com.acme.*                       | com/acme/web/Handler         | true",
        "include=com.acme,exclude=com.acme.legacy | com/acme/legacy/Old          | false",
        "include=com.acme,exclude=com.acme.legacy | com/acme/legacyplus/New      | true",
        "include=com.acme,exclude=com.acme        | com/acme/Service             | false",
        "exclude=org.example                      | com/acme/Service             | true",
        "exclude=org.example                      | org/example/Service          | false",
        "''                                       | Main                         | true",
        "include=com.acme:org.example             | org/example/Service          | true",
    })
    void packagesMatchOnNameBoundariesAndExcludesWin(String options, String internalClassName, boolean covered) {
        assertEquals(covered, AgentOptions.parse(options).packages().covers(internalClassName));
    }

    @ParameterizedTest(name = "with ''{0}'', classes under {1} may be covered: {2}")
    @CsvSource(delimiter = '|', value = {
        "include=com.acme              | com/sun/        | false",
        "include=com                   | com/sun/        | true",
        "include=io                    | io/clockagent/  | true",
        "include=org.example:com.acme  | io/clockagent/  | false",
        "exclude=com.acme              | com/sun/        | true",
        "''                            | java/           | true",
    })
    void knowsWhichPackagesAnIncludeCanReach(String options, String internalPrefix, boolean reachable) {
        assertEquals(reachable, AgentOptions.parse(options).packages().mayCoverClassesUnder(internalPrefix));
    }
}
