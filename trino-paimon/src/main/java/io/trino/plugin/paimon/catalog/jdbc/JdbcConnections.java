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

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.function.Supplier;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Connections to the database of the catalog tables, one per call: catalog calls are few (a listing, a lookup, a
 * commit's lock) next to the file reads of a query. The driver is found in the plugin's own class loader rather
 * than through {@code DriverManager}, which only sees drivers of the class loader that first touched it.
 */
public final class JdbcConnections
{
    private final String uri;
    private final String catalogKey;
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
        try (Connection connection = connect()) {
            return call.call(connection);
        }
        catch (SQLException e) {
            throw new TrinoException(PAIMON_CATALOG_ERROR, "Failed to %s in %s: %s".formatted(action.get(), description(), e.getMessage()), e);
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
