package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.clock.CachePolicy;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.rewrite.IgnoredPackages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntPredicate;

/**
 * Writes {@code option_grammar.h}, the C option parser's view of the option grammar, from the Java parser's constants
 * and from the JDK's character classes that the Java parser applies: the valid keys and values, the tick's bounds, the
 * packages never rewritten, and which characters Java counts as identifier starts, identifier parts, whitespace and
 * decimal digits, as ranges of UTF-16 code units (the Java parser looks at one {@code char} at a time). Run by
 * {@code agent/src/main/c/build.sh} at build time, against the agent's compiled classes, and never shipped; the
 * character classes are those of the JDK that builds the agent.
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
        StringBuilder header = new StringBuilder()
                .append("/* Written by OptionGrammarHeader.java from AgentOptions.java, the option enums,")
                .append(" IgnoredPackages.java and java.lang.Character at build time. */\n")
                .append("#ifndef CLOCK_AGENT_OPTION_GRAMMAR_H\n#define CLOCK_AGENT_OPTION_GRAMMAR_H\n\n");
        define(header, "AGENT_ARGUMENTS_SOURCE", quoted(AgentOptions.AGENT_ARGUMENTS));
        define(header, "SYSTEM_PROPERTY_SOURCE", quoted("system property " + AgentOptions.SYSTEM_PROPERTY));
        define(header, "ENVIRONMENT_VARIABLE_SOURCE", quoted(AgentOptions.ENVIRONMENT_VARIABLE));
        define(header, "VALID_KEYS", quoted(AgentOptions.VALID_KEYS));
        define(header, "DEFAULT_TICK_NANOS", AgentOptions.DEFAULT_TICK_NANOS + "LL");
        define(header, "MIN_TICK_NANOS", AgentOptions.MIN_TICK_NANOS + "LL");
        define(header, "MAX_TICK_NANOS", AgentOptions.MAX_TICK_NANOS + "LL");
        define(header, "WAIT_VALUES", spellings(WaitStrategy.values()));
        define(header, "CACHE_VALUES", spellings(CachePolicy.values()));
        header.append("/* Pairs of an internal-name prefix and why packages under it are never rewritten. */\n");
        StringBuilder ignored = new StringBuilder("{");
        for (String prefix : IgnoredPackages.prefixes()) {
            ignored.append(ignored.length() == 1 ? "" : ", ").append(quoted(prefix)).append(", ")
                    .append(quoted(IgnoredPackages.reasonFor(prefix)));
        }
        define(header, "IGNORED_PREFIXES_AND_REASONS", ignored.append('}'));
        header.append("/* Inclusive ranges of UTF-16 code units, as {first, last} pairs. */\n");
        define(header, "JAVA_IDENTIFIER_START_RANGES", ranges(c -> Character.isJavaIdentifierStart((char) c)));
        define(header, "JAVA_IDENTIFIER_PART_RANGES", ranges(c -> Character.isJavaIdentifierPart((char) c)));
        define(header, "JAVA_WHITESPACE_RANGES", ranges(c -> Character.isWhitespace((char) c)));
        define(header, "JAVA_DIGIT_RANGES", ranges(c -> Character.isDigit((char) c)));
        header.append("\n#endif\n");
        Path output = Path.of(args[0]);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, header, StandardCharsets.US_ASCII);
    }

    private static void define(StringBuilder header, String name, Object value) {
        header.append("#define ").append(name).append(' ').append(value).append('\n');
    }

    private static String spellings(Enum<?>[] values) {
        StringBuilder spellings = new StringBuilder("{");
        for (Enum<?> value : values) {
            spellings.append(spellings.length() == 1 ? "" : ", ")
                    .append(quoted(value.name().toLowerCase(java.util.Locale.ROOT)));
        }
        return spellings.append('}').toString();
    }

    /** The texts are plain ASCII, so no character needs escaping; anything else would be a mistake here. */
    private static String quoted(String ascii) {
        if (!ascii.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')) {
            throw new IllegalArgumentException("not plain ASCII: " + ascii);
        }
        return '"' + ascii + '"';
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
