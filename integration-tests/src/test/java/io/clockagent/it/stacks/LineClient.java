package io.clockagent.it.stacks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A client of a service that answers each request line with one line, over 127.0.0.1. One thread at a time. */
final class LineClient implements AutoCloseable {

    /** A liveness bound for one answer; the services answer in milliseconds. */
    private static final int ANSWER_PATIENCE_MILLIS = 30_000;

    private final Socket socket;
    private final BufferedReader in;
    private final PrintWriter out;

    LineClient(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(ANSWER_PATIENCE_MILLIS);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    String ask(String request) throws IOException {
        out.println(request);
        String answer = in.readLine();
        if (answer == null) {
            throw new IOException("the service closed the connection instead of answering '" + request + "'");
        }
        return answer;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
