package io.clockagent.agent.internal.classfile;

/** A class file the rewriter cannot read with certainty; the class then loads from its original bytes. */
public class ClassFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ClassFileException(String reason) {
        super(reason, null, false, false);
    }
}
