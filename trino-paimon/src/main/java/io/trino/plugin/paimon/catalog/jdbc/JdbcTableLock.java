/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.catalog.jdbc;

import io.airlift.units.Duration;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.sql.SQLException;
import java.util.function.BooleanSupplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.plugin.paimon.catalog.jdbc.JdbcCatalogTables.update;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * Paimon's distributed lock of one table: a row of {@code paimon_distributed_locks} whose id is
 * {@code <catalog-key>.<database>.<table>}, taken by inserting it (the primary key lets one writer in) and released
 * by deleting it. A row older than its {@code expire_time_seconds} (the acquire timeout, in seconds) was left by a
 * writer that died, and the next writer removes it. Paimon Java's writers take the same row, so commits of both
 * serialise.
 */
public final class JdbcTableLock
{
    // the first pause between attempts, doubled up to the maximum sleep, as Paimon's lock waits
    private static final long FIRST_SLEEP_MILLIS = 100;

    private final JdbcConnections connections;
    private final JdbcDialect dialect;
    private final Duration acquireTimeout;
    private final Duration checkMaxSleep;

    public JdbcTableLock(JdbcConnections connections, JdbcDialect dialect, Duration acquireTimeout, Duration checkMaxSleep)
    {
        this.connections = requireNonNull(connections, "connections is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.acquireTimeout = requireNonNull(acquireTimeout, "acquireTimeout is null");
        this.checkMaxSleep = requireNonNull(checkMaxSleep, "checkMaxSleep is null");
    }

    public String lockId(SchemaTableName table)
    {
        return "%s.%s.%s".formatted(connections.catalogKey(), table.getSchemaName(), table.getTableName());
    }

    /**
     * Runs the action while holding the table's lock row.
     *
     * @throws TrinoException {@code PAIMON_CATALOG_ERROR} when the lock is not taken within the acquire timeout
     */
    public boolean runWithLock(SchemaTableName table, BooleanSupplier action)
    {
        String lockId = lockId(table);
        acquire(table, lockId);
        try {
            return action.getAsBoolean();
        }
        finally {
            connections.run(() -> "release the lock %s of table %s".formatted(lockId, table), connection -> update(connection, "DELETE FROM paimon_distributed_locks WHERE lock_id = ?", lockId));
        }
    }

    private void acquire(SchemaTableName table, String lockId)
    {
        long start = System.nanoTime();
        long sleep = FIRST_SLEEP_MILLIS / 2;
        while (!tryAcquire(table, lockId)) {
            long waited = System.nanoTime() - start;
            if (waited > acquireTimeout.roundTo(NANOSECONDS)) {
                throw new TrinoException(PAIMON_CATALOG_ERROR, "Failed to take the lock %s of table %s in %s within %s: another writer holds it".formatted(lockId, table, connections.description(), acquireTimeout));
            }
            sleep = Math.min(sleep * 2, checkMaxSleep.toMillis());
            try {
                Thread.sleep(sleep);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TrinoException(PAIMON_CATALOG_ERROR, "Interrupted while waiting for the lock %s of table %s in %s".formatted(lockId, table, connections.description()), e);
            }
        }
    }

    private boolean tryAcquire(SchemaTableName table, String lockId)
    {
        return connections.run(() -> "take the lock %s of table %s".formatted(lockId, table), connection -> {
            update(connection, dialect.deleteExpiredLock(), lockId);
            try {
                return update(connection, "INSERT INTO paimon_distributed_locks (lock_id, expire_time_seconds) VALUES (?,?)", lockId, acquireTimeout.toMillis() / 1000) > 0;
            }
            catch (SQLException e) {
                // the row is there: another writer holds the lock
                return false;
            }
        });
    }
}
