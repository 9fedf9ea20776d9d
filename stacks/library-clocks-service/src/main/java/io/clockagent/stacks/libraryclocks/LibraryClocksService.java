package io.clockagent.stacks.libraryclocks;

import cn.hutool.core.lang.Snowflake;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import io.clockagent.stacks.console.StackConsole;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A service over TCP ({@link Session}) that takes ids from mybatis-plus's default snowflake ({@code IdWorker}) and from
 * a Hutool {@code Snowflake} on Hutool's {@code SystemClock}, guards each request with a Sentinel resource, and reads
 * the static clocks of mybatis-plus, Hutool, Sentinel and Dubbo: each library's clock is backed by a thread of its own
 * once used. Sentinel writes its logs into the directory named by the system property {@code stack.logDirectory}.
 * Listens on 127.0.0.1, on a free port it prints as {@code listening PORT}, and takes {@link StackConsole}'s commands on
 * stdin.
 */
public final class LibraryClocksService {

    private static final int SESSION_THREADS = 4;
    private static final long HUTOOL_WORKER_ID = 1;
    private static final long HUTOOL_DATA_CENTER_ID = 1;
    /**
     * How far back Hutool's snowflake lets its clock go without refusing an id: none. Its default, 2 s, would hide a
     * step back in the ids' timestamps; refused, it is counted.
     */
    private static final long HUTOOL_TOLERATED_BACKWARDS_MILLIS = 0;

    private LibraryClocksService() {
    }

    public static void main(String[] args) throws IOException {
        String logDirectory = System.getProperty("stack.logDirectory");
        if (logDirectory == null) {
            throw new IllegalStateException("name a directory for Sentinel's logs with -Dstack.logDirectory=DIR");
        }
        // Read by Sentinel as it first logs; without it, it writes into ~/logs/csp.
        System.setProperty("csp.sentinel.log.dir", logDirectory);
        Snowflake hutool = new Snowflake(null, HUTOOL_WORKER_ID, HUTOOL_DATA_CENTER_ID, true,
                HUTOOL_TOLERATED_BACKWARDS_MILLIS);
        List<CheckedIds> generators = List.of(new CheckedIds("mybatisPlus", IdWorker::getId),
                new CheckedIds("hutool", hutool::nextId));
        ServiceCounts counts = new ServiceCounts(generators);
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ExecutorService sessions = Executors.newFixedThreadPool(SESSION_THREADS);
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    sessions.execute(new Session(server.accept(), generators, counts));
                } catch (IOException closed) {
                    return;
                }
            }
        }, "acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        System.out.println("listening " + server.getLocalPort());
        // The probe's "library" read is a library clock, Hutool's: without the agent it costs a volatile read, as a
        // cached read does, so here the probe cannot tell the agent's cache from the library's.
        StackConsole.serve(counts::describe, System::currentTimeMillis, cn.hutool.core.date.SystemClock::now);
    }
}
