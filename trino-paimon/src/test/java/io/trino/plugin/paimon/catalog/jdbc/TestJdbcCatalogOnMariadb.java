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
import io.trino.plugin.paimon.testing.MariaDbServer;

import java.util.List;
import java.util.Map;

/**
 * The JDBC catalog on a real MariaDB server the test starts ({@link MariaDbServer}), through a {@code jdbc:mysql:} URL,
 * so that Trino and Paimon Java both take their lock rows with MySQL's dialect.
 */
final class TestJdbcCatalogOnMariadb
        extends BaseJdbcCatalogOnServerTest<MariaDbServer>
{
    @Override
    protected MariaDbServer startServer()
    {
        return MariaDbServer.start();
    }

    @Override
    protected String jdbcUrl(MariaDbServer server)
    {
        return server.mysqlJdbcUrl();
    }

    @Override
    protected String jdbcUrlOnPort(int port)
    {
        return "jdbc:mysql://127.0.0.1:%s/%s?permitMysqlScheme".formatted(port, MariaDbServer.DATABASE);
    }

    @Override
    protected String wrongPasswordMessage()
    {
        return "Access denied for user '%s'".formatted(MariaDbServer.USER);
    }

    @Override
    protected Map<String, String> credentials()
    {
        return ImmutableMap.of("user", MariaDbServer.USER, "password", MariaDbServer.PASSWORD);
    }

    @Override
    protected List<String> refuseRegistrationOf(String table)
    {
        return List.of("""
                CREATE TRIGGER refuse_%1$s BEFORE INSERT ON paimon_tables FOR EACH ROW
                BEGIN
                    IF NEW.table_name = '%1$s' THEN
                        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'registration refused';
                    END IF;
                END""".formatted(table));
    }
}
