package io.clockagent.agent.internal.classfile;

/** Bounds-checked big-endian reads from a class file, so a truncated or lying file fails with a clear reason. */
final class ClassFileCursor {

    private final byte[] bytes;

    ClassFileCursor(byte[] bytes) {
        this.bytes = bytes;
    }

    byte[] bytes() {
        return bytes;
    }

    int u1(int position) {
        require(position, 1);
        return bytes[position] & 0xff;
    }

    int u2(int position) {
        require(position, 2);
        return (bytes[position] & 0xff) << 8 | bytes[position + 1] & 0xff;
    }

    int u4(int position) {
        require(position, 4);
        return u2(position) << 16 | u2(position + 2);
    }

    /** A u4 length field, which must fit in what is left of the file after it. */
    int s4Length(int position) {
        int length = u4(position);
        if (length < 0 || length > bytes.length - position - 4) {
            throw new ClassFileException("length " + Integer.toUnsignedString(length) + " at byte " + position
                    + " runs past the end of the " + bytes.length + "-byte class file");
        }
        return length;
    }

    /**
     * Skips a fields or methods table, whose entries are a u2 count of fixed fields and attributes.
     *
     * @param position the table's u2 count
     * @return the position just past the table
     */
    int skipMembers(int position) {
        int members = u2(position);
        position += 2;
        for (int member = 0; member < members; member++) {
            position = skipAttributes(position + 6);
        }
        return position;
    }

    /**
     * @param position an attributes table's u2 count
     * @return the position just past the table
     */
    int skipAttributes(int position) {
        int attributes = u2(position);
        position += 2;
        for (int attribute = 0; attribute < attributes; attribute++) {
            position += 6 + s4Length(position + 2);
        }
        return position;
    }

    void require(int position, int length) {
        if (position < 0 || length < 0 || position > bytes.length - length) {
            throw new ClassFileException("truncated class file: needs byte " + (position + length) + " of "
                    + bytes.length);
        }
    }

    /** Whether the Utf8 constant at {@code position} (its tag byte) holds exactly {@code expected}. */
    boolean utf8Equals(int position, byte[] expected) {
        int length = u2(position + 1);
        if (length != expected.length) {
            return false;
        }
        require(position + 3, length);
        for (int i = 0; i < length; i++) {
            if (bytes[position + 3 + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
