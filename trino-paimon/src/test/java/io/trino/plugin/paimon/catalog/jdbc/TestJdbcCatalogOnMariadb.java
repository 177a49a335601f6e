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
import io.trino.Session;
import io.trino.plugin.paimon.testing.MariaDbServer;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;

/**
 * The JDBC catalog on a real MariaDB server the test starts ({@link MariaDbServer}), through a {@code jdbc:mysql:} URL,
 * so that Trino and Paimon Java both take their lock rows with MySQL's dialect.
 */
final class TestJdbcCatalogOnMariadb
        extends BaseJdbcCatalogTest
{
    private MariaDbServer server;
    private String unreachableUri;

    @Override
    protected String startDatabase(Path root)
            throws IOException
    {
        server = MariaDbServer.start();
        try (ServerSocket socket = new ServerSocket(0)) {
            // a port nothing listens on once the socket is closed
            unreachableUri = "jdbc:mysql://127.0.0.1:%s/%s?permitMysqlScheme".formatted(socket.getLocalPort(), MariaDbServer.DATABASE);
        }
        return server.mysqlJdbcUrl();
    }

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        QueryRunner queryRunner = super.createQueryRunner();
        queryRunner.createCatalog("wrong_password", "paimon", ImmutableMap.<String, String>builder()
                .putAll(catalogProperties(jdbcUri()))
                .put("paimon.jdbc.password", "not-the-password")
                .buildKeepingLast());
        return queryRunner;
    }

    @Override
    protected void stopDatabase()
            throws IOException
    {
        if (server != null) {
            server.close();
        }
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

    @Override
    protected String unreachableUri(Path root)
    {
        return unreachableUri;
    }

    @Test
    void wrongPasswordIsAClearError()
    {
        Session session = testSessionBuilder().setCatalog("wrong_password").setSchema(DATABASE).build();
        assertThatTrinoException(catchTrinoException(session, "SELECT * FROM orders"))
                .hasErrorCode(PAIMON_CATALOG_ERROR)
                .hasMessageContaining("in " + catalogDescription(jdbcUri()))
                .hasMessageContaining("Access denied for user '%s'".formatted(MariaDbServer.USER));
    }
}
