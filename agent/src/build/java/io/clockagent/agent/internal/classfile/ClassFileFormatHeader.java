package io.clockagent.agent.internal.classfile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code class_file_format.h}, the C rewriter's view of the class-file format, from the Java rewriter's
 * constants: the oldest version it reads, the constant-pool tags and entry sizes, and the names of the clock method,
 * so that the two rewriters cannot drift apart on them. Run by {@code agent/src/main/c/build.sh} at build time, against
 * the agent's compiled classes, and never shipped.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.classfile.ClassFileFormatHeader OUTPUT_FILE}
 */
final class ClassFileFormatHeader {

    private ClassFileFormatHeader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ClassFileFormatHeader OUTPUT_FILE");
        }
        StringBuilder header = new StringBuilder()
                .append("/* Written by ClassFileFormatHeader.java from CallSiteRewriter.java and ConstantPool.java at")
                .append(" build time. */\n")
                .append("#ifndef CLOCK_AGENT_CLASS_FILE_FORMAT_H\n#define CLOCK_AGENT_CLASS_FILE_FORMAT_H\n\n");
        define(header, "MIN_MAJOR_VERSION", CallSiteRewriter.MIN_MAJOR_VERSION);
        define(header, "TAG_UTF8", ConstantPool.TAG_UTF8);
        define(header, "TAG_CLASS", ConstantPool.TAG_CLASS);
        define(header, "TAG_METHODREF", ConstantPool.TAG_METHODREF);
        define(header, "TAG_NAME_AND_TYPE", ConstantPool.TAG_NAME_AND_TYPE);
        define(header, "WIDE_ENTRY_SIZE", ConstantPool.WIDE_ENTRY_SIZE);
        define(header, "CLOCK_METHOD_NAME", quoted(CallSiteRewriter.CLOCK_METHOD_NAME));
        define(header, "CLOCK_OWNER_NAME", quoted(CallSiteRewriter.CLOCK_OWNER_NAME));
        define(header, "CLOCK_DESCRIPTOR", quoted(CallSiteRewriter.CLOCK_DESCRIPTOR));
        header.append("/* Entry sizes by tag, tag byte included (Utf8 adds the length it holds); 0 for no tag. */\n");
        define(header, "CONSTANT_POOL_ENTRY_SIZES", entrySizes());
        header.append("\n#endif\n");
        Path output = Path.of(args[0]);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, header, StandardCharsets.US_ASCII);
    }

    private static void define(StringBuilder header, String name, Object value) {
        header.append("#define ").append(name).append(' ').append(value).append('\n');
    }

    /** The names are plain ASCII, so no character needs escaping; anything else would be a mistake here. */
    private static String quoted(String ascii) {
        if (!ascii.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')) {
            throw new IllegalArgumentException("not a plain ASCII name: " + ascii);
        }
        return '"' + ascii + '"';
    }

    /** Up to the last tag there is: C checks the tag against the table's length instead of storing 256 slots. */
    private static String entrySizes() {
        int last = ConstantPool.ENTRY_SIZES.length - 1;
        while (ConstantPool.ENTRY_SIZES[last] == 0) {
            last--;
        }
        StringBuilder sizes = new StringBuilder("{");
        for (int tag = 0; tag <= last; tag++) {
            sizes.append(tag == 0 ? "" : ", ").append(ConstantPool.ENTRY_SIZES[tag]);
        }
        return sizes.append('}').toString();
    }
}
