package io.clockagent.stacks.pool;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.clockprobe.LibraryClock;
import io.clockagent.stacks.console.StackConsole;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A key-value service over TCP ({@link Session}) on a HikariCP pool of connections to H2's in-memory database, which
 * logs each request through Logback's async appender into a rolling file in the directory named by the system
 * property {@code stack.logDirectory}. The pool's housekeeping runs every {@value #HOUSEKEEPING_MILLIS} ms instead of
 * every 30 s, so that it runs while a test drives the service. Listens on 127.0.0.1, on a free port it prints as
 * {@code listening PORT}, and takes {@link StackConsole}'s commands on stdin.
 */
public final class PoolService {

    static final long HOUSEKEEPING_MILLIS = 100;
    private static final int POOL_SIZE = 4;
    private static final int SESSION_THREADS = 8;

    private PoolService() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("com.zaxxer.hikari.housekeeping.periodMs", Long.toString(HOUSEKEEPING_MILLIS));
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:stack;DB_CLOSE_DELAY=-1");
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setPoolName("stack-pool");
        HikariDataSource pool = new HikariDataSource(config);
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE entries (name VARCHAR(200) PRIMARY KEY, content VARCHAR(2000),"
                    + " written_millis BIGINT)");
        }
        ServiceCounts counts = new ServiceCounts(pool);
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ExecutorService sessions = Executors.newFixedThreadPool(SESSION_THREADS);
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    sessions.execute(new Session(server.accept(), pool, counts));
                } catch (IOException closed) {
                    return;
                }
            }
        }, "acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        System.out.println("listening " + server.getLocalPort());
        StackConsole.serve(counts::describe, System::currentTimeMillis, LibraryClock::now);
    }

    /** The number of rows, for the counts. */
    static long rows(HikariDataSource pool) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                var result = statement.executeQuery("SELECT COUNT(*) FROM entries")) {
            result.next();
            return result.getLong(1);
        } catch (SQLException failed) {
            return -1;
        }
    }
}
