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

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The JDBC catalog on SQLite: a database file in the test's temporary folder. */
final class TestJdbcCatalogOnSqlite
        extends BaseJdbcCatalogTest
{
    @Override
    protected String startDatabase(Path root)
    {
        return "jdbc:sqlite:" + root.resolve("catalog.db");
    }

    @Override
    protected void stopDatabase() {}

    @Override
    protected Map<String, String> credentials()
    {
        return ImmutableMap.of();
    }

    @Override
    protected List<String> refuseRegistrationOf(String table)
    {
        return List.of("CREATE TRIGGER refuse_%1$s BEFORE INSERT ON paimon_tables WHEN NEW.table_name = '%1$s' BEGIN SELECT RAISE(ABORT, 'registration refused'); END".formatted(table));
    }

    @Override
    protected String unreachableUri(Path root)
    {
        // SQLite creates a missing database file, but not the folder it is in
        return "jdbc:sqlite:" + root.resolve("no-such-folder/catalog.db");
    }
}
