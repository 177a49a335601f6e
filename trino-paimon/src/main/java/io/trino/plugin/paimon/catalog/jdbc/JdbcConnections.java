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

import com.google.inject.Inject;
import io.trino.spi.TrinoException;
import jakarta.annotation.PreDestroy;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Deque;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Connections to the database of the catalog tables. A few idle connections are kept for the next call, since
 * opening one (a TCP connection and a password exchange) costs far more than the statements a call runs; an idle
 * connection is checked before it is used again, so one the server closed meanwhile is replaced. The driver is found
 * in the plugin's own class loader rather than through {@code DriverManager}, which only sees drivers of the class
 * loader that first touched it.
 */
public final class JdbcConnections
{
    // enough for the coordinator's concurrent metadata calls; more are opened when needed and closed after use
    private static final int MAX_IDLE_CONNECTIONS = 4;
    private static final int VALIDATION_TIMEOUT_SECONDS = 5;

    private final String uri;
    private final String catalogKey;
    private final Deque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final Properties properties = new Properties();
    private volatile Driver driver;

    @Inject
    public JdbcConnections(JdbcCatalogConfig config)
    {
        this.uri = requireNonNull(config.getUri(), "uri is null");
        this.catalogKey = requireNonNull(config.getCatalogKey(), "catalogKey is null");
        config.getUser().ifPresent(user -> properties.setProperty("user", user));
        config.getPassword().ifPresent(password -> properties.setProperty("password", password));
    }

    /** The catalog as messages name it: its key and its database's URL without parameters, which may hold secrets. */
    public String description()
    {
        int parameters = uri.indexOf('?');
        return "JDBC catalog '%s' at %s".formatted(catalogKey, parameters < 0 ? uri : uri.substring(0, parameters));
    }

    public String catalogKey()
    {
        return catalogKey;
    }

    public interface SqlCall<T>
    {
        T call(Connection connection)
                throws SQLException;
    }

    /**
     * Runs the call on a new connection.
     *
     * @param action what the call does, for the message of a failure ("list the tables of schema 's'")
     * @throws TrinoException {@code PAIMON_CATALOG_ERROR} naming the catalog and the action when the database
     * cannot be reached, refuses the login or fails the statement
     */
    public <T> T run(Supplier<String> action, SqlCall<T> call)
    {
        Connection connection = null;
        try {
            connection = borrow();
            T result = call.call(connection);
            giveBack(connection);
            return result;
        }
        catch (SQLException e) {
            // a connection whose call failed may be broken: it is not used again
            closeQuietly(connection, e);
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Failed to %s in %s: %s".formatted(action.get(), description(), e.getMessage()), e);
        }
        catch (RuntimeException e) {
            closeQuietly(connection, e);
            throw e;
        }
    }

    @PreDestroy
    public void close()
    {
        for (Connection connection = idle.pollFirst(); connection != null; connection = idle.pollFirst()) {
            closeQuietly(connection, null);
        }
    }

    private Connection borrow()
            throws SQLException
    {
        for (Connection connection = idle.pollFirst(); connection != null; connection = idle.pollFirst()) {
            boolean valid;
            try {
                valid = connection.isValid(VALIDATION_TIMEOUT_SECONDS);
            }
            catch (SQLException e) {
                valid = false;
            }
            if (valid) {
                return connection;
            }
            closeQuietly(connection, null);
        }
        return connect();
    }

    private void giveBack(Connection connection)
    {
        if (idle.size() < MAX_IDLE_CONNECTIONS) {
            idle.offerFirst(connection);
        }
        else {
            closeQuietly(connection, null);
        }
    }

    private static void closeQuietly(Connection connection, Exception failure)
    {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        }
        catch (SQLException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    private Connection connect()
            throws SQLException
    {
        Connection connection = driver().connect(uri, properties);
        if (connection == null) {
            throw new SQLException("the driver does not take the URL");
        }
        return connection;
    }

    private Driver driver()
            throws SQLException
    {
        Driver found = driver;
        if (found == null) {
            for (Driver candidate : ServiceLoader.load(Driver.class, JdbcConnections.class.getClassLoader())) {
                if (candidate.acceptsURL(uri)) {
                    found = candidate;
                    break;
                }
            }
            if (found == null) {
                throw new SQLException("no JDBC driver of the plugin takes this URL");
            }
            driver = found;
        }
        return found;
    }
}
