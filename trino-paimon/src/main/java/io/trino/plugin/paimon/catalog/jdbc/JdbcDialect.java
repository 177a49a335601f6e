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

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The databases Paimon's JDBC catalog runs on, told apart by the URL's sub-protocol, and the one statement of
 * Paimon's lock dialects that differs between them: removing a lock row older than its expiry.
 */
public enum JdbcDialect
{
    SQLITE("DELETE FROM paimon_distributed_locks WHERE strftime('%s', 'now') - strftime('%s', acquired_at) > expire_time_seconds AND lock_id = ?"),
    POSTGRESQL("DELETE FROM paimon_distributed_locks WHERE EXTRACT(EPOCH FROM AGE(NOW(), acquired_at)) > expire_time_seconds AND lock_id = ?"),
    // MariaDB speaks MySQL's dialect; Paimon Java takes its lock rows only through jdbc:mysql: URLs
    MYSQL("DELETE FROM paimon_distributed_locks WHERE TIMESTAMPDIFF(SECOND, acquired_at, NOW()) > expire_time_seconds AND lock_id = ?");

    private final String deleteExpiredLock;

    JdbcDialect(String deleteExpiredLock)
    {
        this.deleteExpiredLock = requireNonNull(deleteExpiredLock, "deleteExpiredLock is null");
    }

    /** Removes the lock row given as the only parameter when its holder has had it longer than its expiry. */
    public String deleteExpiredLock()
    {
        return deleteExpiredLock;
    }

    public static Optional<JdbcDialect> fromUri(String uri)
    {
        if (uri.startsWith("jdbc:sqlite:")) {
            return Optional.of(SQLITE);
        }
        if (uri.startsWith("jdbc:postgresql:")) {
            return Optional.of(POSTGRESQL);
        }
        if (uri.startsWith("jdbc:mysql:") || uri.startsWith("jdbc:mariadb:")) {
            return Optional.of(MYSQL);
        }
        return Optional.empty();
    }
}
