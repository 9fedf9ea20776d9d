package io.clockagent.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** One load thread's connection to a stack service; each request must succeed, or the run is void. */
interface StackClient extends AutoCloseable {

    /** Sends one request and waits for its answer, which it returns (for HTTP, the body). */
    String request(String request) throws IOException, InterruptedException;

    @Override
    void close() throws IOException;

    /** HTTP/1.1 GETs of the request's path and query, on a kept-alive connection. */
    static StackClient http(int port) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return new StackClient() {
            @Override
            public String request(String pathAndQuery) throws IOException, InterruptedException {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + pathAndQuery)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IOException(pathAndQuery + " answered " + response.statusCode() + ": " + response.body());
                }
                return response.body();
            }

            @Override
            public void close() {
                // The JDK's client closes its idle connections by itself.
            }
        };
    }

    /** A line per request, a line per answer, on one connection. */
    static StackClient lines(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        return new StackClient() {
            @Override
            public String request(String line) throws IOException {
                out.println(line);
                String answer = in.readLine();
                if (answer == null || answer.startsWith("error")) {
                    throw new IOException(line + " answered " + answer);
                }
                return answer;
            }

            @Override
            public void close() throws IOException {
                socket.close();
            }
        };
    }
}
