package io.clockagent.agent.internal.options;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Bytes as the C option parser reads them, which is the text the native start hands the Java side to parse again: each
 * well-formed UTF-8 sequence its character, each byte of anything else U+FFFD on its own. Java's own UTF-8 decoder
 * takes some malformed sequences whole (a sequence cut short at the end is one U+FFFD to it), so that quoting and
 * counting the code units of a text would differ between the two parsers were each to decode the bytes its own way.
 */
final class CParserText {

    private CParserText() {
    }

    static String of(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length);
        int at = 0;
        while (at < bytes.length) {
            int length = sequenceLength(bytes[at] & 0xFF);
            String character = length == 0 || at + length > bytes.length ? null : wellFormed(bytes, at, length);
            text.append(character == null ? "\uFFFD" : character);
            at += character == null ? 1 : length;
        }
        return text.toString();
    }

    /** How long a sequence this lead byte starts, as C's next_code_unit reads it; 0 for a byte no sequence starts. */
    private static int sequenceLength(int lead) {
        if (lead < 0x80) {
            return 1;
        }
        if (lead >= 0xC2 && lead < 0xE0) {
            return 2;
        }
        if (lead >= 0xE0 && lead < 0xF0) {
            return 3;
        }
        return lead >= 0xF0 && lead < 0xF5 ? 4 : 0;
    }

    /** The sequence's character, or null where it is malformed: overlong, a surrogate, past U+10FFFF, cut short. */
    private static String wellFormed(byte[] bytes, int at, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, at, length)).toString();
        } catch (CharacterCodingException malformed) {
            return null;
        }
    }
}
