package io.clockagent.agent.internal.classfile;

/**
 * A class file newer than the newest format the rewriter knows, whose constant pool holds a constant of a tag that
 * format lacks: a new kind of constant, whose size no older reader can know, so nothing after it can be read. Unlike
 * a malformed class, such a class is sound, and its compiler is likely to have written the same constant into many
 * more, so the transformer reports the first one only.
 */
public final class NewerFormatException extends ClassFileException {

    private static final long serialVersionUID = 1L;

    NewerFormatException(int majorVersion, int tag, int index) {
        super("class file version " + majorVersion + " has a constant of unknown tag " + tag + " (entry " + index
                + "), and versions newer than " + CallSiteRewriter.NEWEST_KNOWN_MAJOR_VERSION + " (Java "
                + CallSiteRewriter.NEWEST_KNOWN_JAVA_RELEASE + ") are read only when every tag is known");
    }
}
