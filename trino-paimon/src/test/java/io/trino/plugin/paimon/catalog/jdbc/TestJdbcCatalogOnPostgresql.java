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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.PostgresServer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC catalog on a real PostgreSQL server the test starts ({@link PostgresServer}), with password authentication. */
final class TestJdbcCatalogOnPostgresql
        extends BaseJdbcCatalogOnServerTest<PostgresServer>
{
    @Override
    protected PostgresServer startServer()
    {
        return PostgresServer.start();
    }

    @Override
    protected String jdbcUrl(PostgresServer server)
    {
        return server.jdbcUrl();
    }

    @Override
    protected String jdbcUrlOnPort(int port)
    {
        return "jdbc:postgresql://127.0.0.1:%s/postgres".formatted(port);
    }

    @Override
    protected String wrongPasswordMessage()
    {
        return "password authentication failed for user \"%s\"".formatted(PostgresServer.USER);
    }

    @Override
    protected Map<String, String> credentials()
    {
        return ImmutableMap.of("user", PostgresServer.USER, "password", PostgresServer.PASSWORD);
    }

    @Override
    protected List<String> refuseRegistrationOf(String table)
    {
        return List.of(
                "CREATE FUNCTION refuse_%s() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'registration refused'; END $$ LANGUAGE plpgsql".formatted(table),
                "CREATE TRIGGER refuse_%1$s BEFORE INSERT ON paimon_tables FOR EACH ROW WHEN (NEW.table_name = '%1$s') EXECUTE FUNCTION refuse_%1$s()".formatted(table));
    }

    /** The catalog keeps idle connections; those the server closed meanwhile (a restart, an idle timeout) are replaced. */
    @Test
    void connectionsTheServerClosedAreReplaced()
            throws Exception
    {
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders");
        int closed;
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND usename = '%s'".formatted(PostgresServer.USER))) {
            result.next();
            closed = result.getInt(1);
        }
        assertThat(closed).as("connections the catalog kept").isPositive();
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders");
        assertThat(computeActual("SELECT v FROM orders WHERE k = 2").getOnlyValue()).isEqualTo("TWO");
    }
}
