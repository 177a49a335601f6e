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

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import io.airlift.units.Duration;
import io.airlift.units.MinDuration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;

import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;

/**
 * The JDBC catalog's connection and lock settings; the names mirror the options of Paimon's {@code jdbc} metastore
 * ({@code uri}, {@code jdbc.user}, {@code jdbc.password}, {@code catalog-key}, {@code lock.enabled},
 * {@code lock-acquire-timeout}, {@code lock-check-max-sleep}) and their defaults.
 */
public class JdbcCatalogConfig
{
    private String uri;
    private Optional<String> user = Optional.empty();
    private Optional<String> password = Optional.empty();
    private String catalogKey = "jdbc";
    private Optional<Boolean> lockEnabled = Optional.empty();
    private Duration lockAcquireTimeout = new Duration(8, MINUTES);
    private Duration lockCheckMaxSleep = new Duration(8, SECONDS);

    @NotNull
    public String getUri()
    {
        return uri;
    }

    @Config("paimon.jdbc.uri")
    @ConfigDescription("JDBC URL of the database that holds Paimon's catalog tables, e.g. jdbc:postgresql://host:5432/paimon")
    public JdbcCatalogConfig setUri(String uri)
    {
        this.uri = uri;
        return this;
    }

    @AssertTrue(message = "paimon.jdbc.uri must be a jdbc:sqlite:, jdbc:postgresql:, jdbc:mysql: or jdbc:mariadb: URL")
    public boolean isUriSupported()
    {
        return uri == null || JdbcDialect.fromUri(uri).isPresent();
    }

    public Optional<String> getUser()
    {
        return user;
    }

    @Config("paimon.jdbc.user")
    public JdbcCatalogConfig setUser(String user)
    {
        this.user = Optional.ofNullable(user);
        return this;
    }

    public Optional<String> getPassword()
    {
        return password;
    }

    @Config("paimon.jdbc.password")
    @ConfigSecuritySensitive
    public JdbcCatalogConfig setPassword(String password)
    {
        this.password = Optional.ofNullable(password);
        return this;
    }

    @NotNull
    public String getCatalogKey()
    {
        return catalogKey;
    }

    @Config("paimon.jdbc.catalog-key")
    @ConfigDescription("Paimon's catalog-key: the key of this catalog's rows in the shared catalog tables")
    public JdbcCatalogConfig setCatalogKey(String catalogKey)
    {
        this.catalogKey = catalogKey;
        return this;
    }

    public Optional<Boolean> getLockEnabled()
    {
        return lockEnabled;
    }

    @Config("paimon.jdbc.lock.enabled")
    @ConfigDescription("Whether commits take Paimon's lock row of the table; by default only on object stores, as Paimon decides")
    public JdbcCatalogConfig setLockEnabled(Boolean lockEnabled)
    {
        this.lockEnabled = Optional.ofNullable(lockEnabled);
        return this;
    }

    @NotNull
    @MinDuration("1s")
    public Duration getLockAcquireTimeout()
    {
        return lockAcquireTimeout;
    }

    @Config("paimon.jdbc.lock-acquire-timeout")
    @ConfigDescription("Longest wait for a table's lock row; also the age after which a lock row counts as abandoned")
    public JdbcCatalogConfig setLockAcquireTimeout(Duration lockAcquireTimeout)
    {
        this.lockAcquireTimeout = lockAcquireTimeout;
        return this;
    }

    @NotNull
    @MinDuration("1ms")
    public Duration getLockCheckMaxSleep()
    {
        return lockCheckMaxSleep;
    }

    @Config("paimon.jdbc.lock-check-max-sleep")
    @ConfigDescription("Longest pause between two attempts to take a lock row")
    public JdbcCatalogConfig setLockCheckMaxSleep(Duration lockCheckMaxSleep)
    {
        this.lockCheckMaxSleep = lockCheckMaxSleep;
        return this;
    }
}
