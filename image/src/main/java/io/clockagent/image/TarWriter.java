package io.clockagent.image;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A tar archive (POSIX ustar) of folders and files given in order, each owned by root with a fixed time and mode, so
 * that the same files always make the same bytes: the image's layers and the archive that holds them are digested,
 * and two builds must give the same digest. Entries are held in memory, as the image is a few hundred kilobytes.
 */
final class TarWriter {

    private static final int BLOCK_BYTES = 512;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final long mtimeSeconds;

    /** @param mtimeSeconds the modification time of every entry, seconds since the epoch */
    TarWriter(long mtimeSeconds) {
        this.mtimeSeconds = mtimeSeconds;
    }

    TarWriter folder(String path, int mode) {
        header(path.endsWith("/") ? path : path + "/", mode, 0, '5');
        return this;
    }

    TarWriter file(String path, int mode, byte[] content) {
        header(path, mode, content.length, '0');
        bytes.writeBytes(content);
        pad();
        return this;
    }

    /** The archive, ended by its two empty blocks. */
    byte[] finish() {
        bytes.writeBytes(new byte[2 * BLOCK_BYTES]);
        return bytes.toByteArray();
    }

    private void header(String path, int mode, long size, char type) {
        byte[] name = path.getBytes(StandardCharsets.UTF_8);
        if (name.length > 100) {
            throw new IllegalArgumentException("a tar path of more than 100 bytes: " + path);
        }
        byte[] header = new byte[BLOCK_BYTES];
        System.arraycopy(name, 0, header, 0, name.length);
        octal(header, 100, 8, mode);
        octal(header, 108, 8, 0);
        octal(header, 116, 8, 0);
        octal(header, 124, 12, size);
        octal(header, 136, 12, mtimeSeconds);
        header[156] = (byte) type;
        ascii(header, 257, "ustar\u000000");
        ascii(header, 265, "root");
        ascii(header, 297, "root");
        // The checksum is taken with its own field as spaces, then written as six digits, a NUL and a space.
        ascii(header, 148, "        ");
        long sum = 0;
        for (byte b : header) {
            sum += b & 0xFF;
        }
        ascii(header, 148, String.format("%06o", sum) + "\u0000 ");
        bytes.writeBytes(header);
    }

    private void pad() {
        int partial = bytes.size() % BLOCK_BYTES;
        if (partial != 0) {
            bytes.writeBytes(new byte[BLOCK_BYTES - partial]);
        }
    }

    /** A number in octal, zero-padded to fill the field but its last byte, which stays NUL. */
    private static void octal(byte[] header, int offset, int length, long value) {
        ascii(header, offset, String.format("%0" + (length - 1) + "o", value));
    }

    private static void ascii(byte[] header, int offset, String text) {
        byte[] encoded = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(encoded, 0, header, offset, encoded.length);
    }
}
