package io.clockagent.stacks.pool;

import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.atomic.AtomicLong;

/** What the service has done, for the {@code stats} command; updated by every session thread. */
final class ServiceCounts {

    final AtomicLong puts = new AtomicLong();
    final AtomicLong gets = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    private final HikariDataSource pool;

    ServiceCounts(HikariDataSource pool) {
        this.pool = pool;
    }

    String describe() {
        return "puts=" + puts.get() + " gets=" + gets.get() + " failures=" + failures.get() + " rows="
                + PoolService.rows(pool) + " poolConnections=" + pool.getHikariPoolMXBean().getTotalConnections();
    }
}
