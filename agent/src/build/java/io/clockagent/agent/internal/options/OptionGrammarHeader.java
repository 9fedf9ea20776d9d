package io.clockagent.agent.internal.options;

import static io.clockagent.agent.internal.CHeader.quoted;

import io.clockagent.agent.internal.CHeader;
import io.clockagent.agent.internal.caching.CachePolicy;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.rewrite.LibraryClockPolicy;
import io.clockagent.agent.internal.rewrite.IgnoredPackages;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntPredicate;

/**
 * Writes {@code option_grammar.h}, the C option parser's view of the option grammar, from the Java parser's constants
 * and from the JDK's character classes that the Java parser applies: the valid keys and values, the line that
 * {@code enabled=false} prints, the tick's bounds, the packages never rewritten, and which characters Java counts as
 * identifier starts, identifier parts, whitespace and decimal digits, as ranges of UTF-16 code units (the Java parser
 * looks at one {@code char} at a time). Run by {@code agent/src/main/c/build.sh} at build time, against the agent's
 * compiled classes, and never shipped; the character classes are those of the JDK that builds the agent.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.options.OptionGrammarHeader OUTPUT_FILE}
 */
final class OptionGrammarHeader {

    private static final int CODE_UNITS = 0x10000;

    private OptionGrammarHeader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: OptionGrammarHeader OUTPUT_FILE");
        }
        StringBuilder ignored = new StringBuilder("{");
        for (String prefix : IgnoredPackages.prefixes()) {
            ignored.append(ignored.length() == 1 ? "" : ", ").append(quoted(prefix)).append(", ")
                    .append(quoted(IgnoredPackages.reasonFor(prefix)));
        }
        new CHeader("CLOCK_AGENT_OPTION_GRAMMAR_H",
                "OptionGrammarHeader.java from AgentOptions.java, the option enums, IgnoredPackages.java and"
                        + " java.lang.Character")
                .define("AGENT_ARGUMENTS_SOURCE", quoted(AgentOptions.AGENT_ARGUMENTS))
                .define("SYSTEM_PROPERTY_SOURCE", quoted("system property " + AgentOptions.SYSTEM_PROPERTY))
                .define("ENVIRONMENT_VARIABLE_SOURCE", quoted(AgentOptions.ENVIRONMENT_VARIABLE))
                .define("AGENT_OPTIONS_SYSTEM_PROPERTY", quoted(AgentOptions.SYSTEM_PROPERTY))
                .define("AGENT_OPTIONS_ENVIRONMENT_VARIABLE", quoted(AgentOptions.ENVIRONMENT_VARIABLE))
                .define("VALID_KEYS", quoted(AgentOptions.VALID_KEYS))
                .define("OPTION_KEYS", "{" + String.join(", ", AgentOptions.KEYS.stream().map(CHeader::quoted)
                        .toArray(String[]::new)) + "}")
                .comment("The most UTF-16 code units of an option's text that an error line quotes.")
                .define("QUOTED_MOST", OptionToken.QUOTED_MOST)
                .define("ENABLED_KEY", quoted(AgentOptions.ENABLED))
                .define("QUIET_KEY", quoted(AgentOptions.QUIET))
                .comment("The line, after the agent's prefix, that enabled=false prints; %s is the source's name.")
                .define("TURNED_OFF_FORMAT", quoted(AgentOptions.turnedOffLine("%s")))
                .define("DEFAULT_TICK_NANOS", AgentOptions.DEFAULT_TICK_NANOS + "LL")
                .define("MIN_TICK_NANOS", AgentOptions.MIN_TICK_NANOS + "LL")
                .define("MAX_TICK_NANOS", AgentOptions.MAX_TICK_NANOS + "LL")
                .define("WAIT_VALUES", spellings(WaitStrategy.values()))
                .define("CACHE_VALUES", spellings(CachePolicy.values()))
                .define("LIBRARY_CLOCKS_VALUES", spellings(LibraryClockPolicy.values()))
                .comment("The clocks option: its valid forms, the most entries it keeps and what an entry past them"
                        + " is told.")
                .define("CLOCK_FORMS", quoted(ClockNames.VALID_FORMS))
                .define("MOST_CLOCK_METHODS", ClockNames.MOST)
                .define("CLOCKS_AT_MOST", quoted(ClockNames.AT_MOST))
                .comment("The most entries left out that get a line each; the others get one line together.")
                .define("MOST_LEFT_OUT_LINES", LeftOutEntries.MOST)
                .comment("Pairs of an internal-name prefix and why packages under it are never rewritten.")
                .define("IGNORED_PREFIXES_AND_REASONS", ignored.append('}'))
                .comment("Inclusive ranges of UTF-16 code units, as {first, last} pairs.")
                .define("JAVA_IDENTIFIER_START_RANGES", ranges(c -> Character.isJavaIdentifierStart((char) c)))
                .define("JAVA_IDENTIFIER_PART_RANGES", ranges(c -> Character.isJavaIdentifierPart((char) c)))
                .define("JAVA_WHITESPACE_RANGES", ranges(c -> Character.isWhitespace((char) c)))
                .define("JAVA_DIGIT_RANGES", ranges(c -> Character.isDigit((char) c)))
                .write(Path.of(args[0]));
    }

    private static String spellings(Enum<?>[] values) {
        StringBuilder spellings = new StringBuilder("{");
        for (Enum<?> value : values) {
            spellings.append(spellings.length() == 1 ? "" : ", ")
                    .append(quoted(value.name().toLowerCase(java.util.Locale.ROOT)));
        }
        return spellings.append('}').toString();
    }

    private static String ranges(IntPredicate member) {
        StringBuilder ranges = new StringBuilder("{");
        int first = -1;
        for (int c = 0; c <= CODE_UNITS; c++) {
            boolean in = c < CODE_UNITS && member.test(c);
            if (in && first < 0) {
                first = c;
            } else if (!in && first >= 0) {
                ranges.append(ranges.length() == 1 ? "" : ", ").append('{').append(first).append(", ")
                        .append(c - 1).append('}');
                first = -1;
            }
        }
        return ranges.append('}').toString();
    }
}
