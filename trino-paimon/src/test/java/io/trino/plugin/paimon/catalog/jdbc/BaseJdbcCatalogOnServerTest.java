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
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_CATALOG_ERROR;
import static io.trino.plugin.paimon.testing.LocalProcesses.freePort;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;

/**
 * The JDBC catalog on a database server the test starts on 127.0.0.1, reached with a user and a password: besides the
 * checks of {@link BaseJdbcCatalogTest}, a wrong password is a clear error of the catalog.
 */
abstract class BaseJdbcCatalogOnServerTest<S extends AutoCloseable>
        extends BaseJdbcCatalogTest
{
    private S server;
    private String unreachableUri;

    protected abstract S startServer();

    /** The JDBC URL of the started server's database. */
    protected abstract String jdbcUrl(S server);

    /** A JDBC URL of the same kind as the server's, on another port of 127.0.0.1. */
    protected abstract String jdbcUrlOnPort(int port);

    /** What the server's driver says when the password of the test user is wrong. */
    protected abstract String wrongPasswordMessage();

    @Override
    protected final String startDatabase(Path root)
            throws IOException
    {
        server = startServer();
        unreachableUri = jdbcUrlOnPort(freePort());
        return jdbcUrl(server);
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
    protected final void stopDatabase()
            throws Exception
    {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected final String unreachableUri(Path root)
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
                .hasMessageContaining(wrongPasswordMessage());
    }
}
