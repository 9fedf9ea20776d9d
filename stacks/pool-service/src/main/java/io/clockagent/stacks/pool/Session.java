package io.clockagent.stacks.pool;

import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's connection, a request per line: {@code put NAME CONTENT} answers {@code ok}, {@code get NAME} answers
 * {@code value CONTENT AGE_MILLIS} (how long ago it was written) or {@code missing}. Each request takes a pooled
 * database connection and is logged.
 */
final class Session implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final Socket socket;
    private final HikariDataSource pool;
    private final ServiceCounts counts;

    Session(Socket socket, HikariDataSource pool, ServiceCounts counts) {
        this.socket = socket;
        this.pool = pool;
        this.counts = counts;
    }

    @Override
    public void run() {
        try (socket;
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8)) {
            for (String request = in.readLine(); request != null; request = in.readLine()) {
                out.println(answer(request.split(" ", 3)));
            }
        } catch (IOException clientGone) {
            // The client closed its end; nothing is owed to it.
        }
    }

    private String answer(String[] request) {
        try (Connection connection = pool.getConnection()) {
            if (request.length == 3 && request[0].equals("put")) {
                try (PreparedStatement merge = connection.prepareStatement(
                        "MERGE INTO entries (name, content, written_millis) KEY (name) VALUES (?, ?, ?)")) {
                    merge.setString(1, request[1]);
                    merge.setString(2, request[2]);
                    merge.setLong(3, System.currentTimeMillis());
                    merge.executeUpdate();
                }
                counts.puts.incrementAndGet();
                LOG.info("put {}", request[1]);
                return "ok";
            }
            if (request.length == 2 && request[0].equals("get")) {
                counts.gets.incrementAndGet();
                LOG.info("get {}", request[1]);
                return read(connection, request[1]);
            }
            return "error: unknown request; valid: put NAME CONTENT, get NAME";
        } catch (SQLException failed) {
            counts.failures.incrementAndGet();
            LOG.warn("request failed", failed);
            return "error: " + failed.getMessage();
        }
    }

    private static String read(Connection connection, String name) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT content, written_millis FROM entries WHERE name = ?")) {
            select.setString(1, name);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? "value " + row.getString(1) + " " + (System.currentTimeMillis() - row.getLong(2))
                        : "missing";
            }
        }
    }
}
