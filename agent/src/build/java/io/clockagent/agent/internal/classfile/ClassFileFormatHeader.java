package io.clockagent.agent.internal.classfile;

import static io.clockagent.agent.internal.CHeader.quoted;

import io.clockagent.agent.internal.CHeader;
import io.clockagent.agent.internal.rewrite.ClockClassLoads;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code class_file_format.h}, the C rewriter's view of the class-file format, from the Java rewriter's
 * constants: the oldest version it reads, the constant-pool tags and entry sizes, the names of the clock method,
 * the list of redirected methods and the library clocks, so that the two rewriters cannot drift apart on them. Run by {@code agent/src/main/c/build.sh} at build time, against
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
        new CHeader("CLOCK_AGENT_CLASS_FILE_FORMAT_H",
                "ClassFileFormatHeader.java from CallSiteRewriter.java and ConstantPool.java")
                .define("MIN_MAJOR_VERSION", CallSiteRewriter.MIN_MAJOR_VERSION)
                .define("TAG_UTF8", ConstantPool.TAG_UTF8)
                .define("TAG_CLASS", ConstantPool.TAG_CLASS)
                .define("TAG_METHODREF", ConstantPool.TAG_METHODREF)
                .define("TAG_INTERFACE_METHODREF", ConstantPool.TAG_INTERFACE_METHODREF)
                .define("TAG_NAME_AND_TYPE", ConstantPool.TAG_NAME_AND_TYPE)
                .define("TAG_METHOD_HANDLE", ConstantPool.TAG_METHOD_HANDLE)
                .define("WIDE_ENTRY_SIZE", ConstantPool.WIDE_ENTRY_SIZE)
                .define("CLOCK_METHOD_NAME", quoted(CallSiteRewriter.CLOCK_METHOD_NAME))
                .define("CLOCK_OWNER_NAME", quoted(CallSiteRewriter.CLOCK_OWNER_NAME))
                .define("CLOCK_DESCRIPTOR", quoted(CallSiteRewriter.CLOCK_DESCRIPTOR))
                .define("TIME_PACKAGE", quoted(CallSiteRewriter.TIME_PACKAGE_NAME))
                .comment("RedirectedMethod.ALL, in its order: owner, name, descriptor, target by default (NULL: none),"
                        + " target under cachedInstants.")
                .define("REDIRECTED_METHODS", redirectedMethods())
                .comment("LibraryClock.ALL, in its order: {owner, method name, known static} of each, descriptor ()J.")
                .define("LIBRARY_CLOCKS_ENTRIES", libraryClocks())
                .define("LIBRARY_CLOCKS", "{LIBRARY_CLOCKS_ENTRIES}")
                .comment("What each is, in the same order, as the line that says its class loads after all puts it.")
                .define("LIBRARY_CLOCK_DESCRIPTIONS", descriptions())
                .comment("That line (ClockClassLoads.line): the class's binary name, its description, the class it"
                        + " loaded for.")
                .define("CLOCK_CLASS_LOADED_FORMAT", quoted(ClockClassLoads.line("%s", "%s", "%s")))
                .comment("The line that a class of the clocks option declares no static method it names"
                        + " (ClockClassLoads.withdrawnLine): the class's binary name, the method's name, the entry.")
                .define("CLOCK_METHOD_WITHDRAWN_FORMAT", quoted(ClockClassLoads.withdrawnLine("%s", "%s", "%s")))
                .comment("StaticUses: the instructions and the method handle kind that use a Methodref otherwise than"
                        + " statically, and the attribute that holds a method's code.")
                .define("OP_INVOKEVIRTUAL", StaticUses.OP_INVOKEVIRTUAL)
                .define("OP_INVOKESPECIAL", StaticUses.OP_INVOKESPECIAL)
                .define("OP_INVOKEINTERFACE", StaticUses.OP_INVOKEINTERFACE)
                .define("REF_INVOKE_STATIC", StaticUses.REF_INVOKE_STATIC)
                .define("CODE_ATTRIBUTE", quoted(MethodBodies.CODE_ATTRIBUTE_NAME))
                .comment("Bytecode: the variable-sized instructions, and the length of every fixed-size one by opcode"
                        + " (0: undefined or variable-sized).")
                .define("OP_TABLESWITCH", Bytecode.OP_TABLESWITCH)
                .define("OP_LOOKUPSWITCH", Bytecode.OP_LOOKUPSWITCH)
                .define("OP_WIDE", Bytecode.OP_WIDE)
                .define("OP_IINC", Bytecode.OP_IINC)
                .define("INSTRUCTION_LENGTHS", instructionLengths())
                .comment("Entry sizes by tag, tag byte included (Utf8 adds the length it holds); 0 for no tag.")
                .define("CONSTANT_POOL_ENTRY_SIZES", entrySizes())
                .write(Path.of(args[0]));
    }

    private static String redirectedMethods() {
        StringBuilder methods = new StringBuilder("{");
        for (RedirectedMethod method : RedirectedMethod.ALL) {
            methods.append(methods.length() == 1 ? "" : ", ").append('{').append(quoted(method.owner())).append(", ")
                    .append(quoted(method.name())).append(", ").append(quoted(method.descriptor())).append(", ")
                    .append(method.target(false) == null ? "NULL" : quoted(method.target(false))).append(", ")
                    .append(quoted(method.target(true))).append('}');
        }
        return methods.append('}').toString();
    }

    /** Each {owner, name, known to be static}, comma-separated: every library clock is. */
    private static String libraryClocks() {
        StringBuilder clocks = new StringBuilder();
        for (LibraryClock clock : LibraryClock.ALL) {
            clocks.append(clocks.length() == 0 ? "" : ", ").append('{').append(quoted(clock.method().owner()))
                    .append(", ").append(quoted(clock.method().name())).append(", ")
                    .append(clock.method().knownStatic() ? 1 : 0).append('}');
        }
        return clocks.toString();
    }

    private static String instructionLengths() {
        StringBuilder lengths = new StringBuilder("{");
        for (int opcode = 0; opcode < Bytecode.FIXED_LENGTHS.length; opcode++) {
            lengths.append(opcode == 0 ? "" : ", ").append(Bytecode.FIXED_LENGTHS[opcode]);
        }
        return lengths.append('}').toString();
    }

    private static String descriptions() {
        StringBuilder descriptions = new StringBuilder("{");
        for (LibraryClock clock : LibraryClock.ALL) {
            descriptions.append(descriptions.length() == 1 ? "" : ", ").append(quoted(clock.describe()));
        }
        return descriptions.append('}').toString();
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
