package io.clockagent.demo.load;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 keep-alive client over one socket, enough for the quote service's fixed-length responses; used
 * by one thread at a time. Kept this small so that the load generator costs little next to the service.
 */
final class HttpConnection implements AutoCloseable {

    static final int READ_TIMEOUT_MILLIS = 10_000;
    private static final int MAX_LINE_BYTES = 8_192;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] line = new byte[MAX_LINE_BYTES];
    private byte[] body = new byte[1_024];
    private int bodyLength;

    HttpConnection(InetSocketAddress server) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(server, READ_TIMEOUT_MILLIS);
        in = new BufferedInputStream(socket.getInputStream(), 16_384);
        out = new BufferedOutputStream(socket.getOutputStream(), 16_384);
    }

    /**
     * Sends one request and reads the whole response; the body stays readable through {@link #bodyHash()} until the
     * next call.
     *
     * @return the status code
     */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        int statusLength = readLine();
        // "HTTP/1.1 200 OK"
        if (statusLength < 12 || line[8] != ' ') {
            throw new IOException("bad status line: " + new String(line, 0, statusLength, StandardCharsets.US_ASCII));
        }
        int status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        long contentLength = -1;
        boolean close = false;
        for (int length = readLine(); length > 0; length = readLine()) {
            String header = new String(line, 0, length, StandardCharsets.US_ASCII);
            int colon = header.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                contentLength = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Connection") && value.equalsIgnoreCase("close")) {
                close = true;
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                throw new IOException("unexpected Transfer-Encoding: " + value);
            }
        }
        if (contentLength < 0 || contentLength > 1_048_576) {
            throw new IOException("missing or oversized Content-Length: " + contentLength);
        }
        bodyLength = (int) contentLength;
        if (body.length < bodyLength) {
            body = new byte[bodyLength];
        }
        readFully(body, bodyLength);
        if (close) {
            throw new IOException("server closed the keep-alive connection");
        }
        return status;
    }

    /** A 64-bit FNV-1a hash of the last response body. */
    long bodyHash() {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < bodyLength; i++) {
            hash ^= body[i] & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    String bodyText() {
        return new String(body, 0, bodyLength, StandardCharsets.US_ASCII);
    }

    /** Reads one CRLF-terminated line into {@link #line}, without the CRLF, and returns its length. */
    private int readLine() throws IOException {
        int length = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed mid-response");
            }
            if (b == '\n') {
                return length > 0 && line[length - 1] == '\r' ? length - 1 : length;
            }
            if (length == line.length) {
                throw new IOException("header line longer than " + MAX_LINE_BYTES + " bytes");
            }
            line[length++] = (byte) b;
        }
    }

    private void readFully(byte[] into, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int read = in.read(into, done, length - done);
            if (read < 0) {
                throw new EOFException("connection closed after " + done + " of " + length + " body bytes");
            }
            done += read;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
