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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema and table names that could address something other than one folder of the warehouse (reliability.md T17):
 * {@code .}, {@code ..}, path separators, hidden names, Paimon's {@code $} of system tables and branches, its
 * {@code sys} database, names too long for a file name. Each is refused with "Invalid schema/table name" and leaves
 * every file in and around the warehouse as it was; lookups under such names find nothing. Odd names that are
 * plain folder names round-trip: create, insert, select, drop, inside the database folder.
 */
final class TestHostileIdentifiers
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "hostile";

    TestHostileIdentifiers()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        // a sentinel beside the warehouse, which an escaping name would reach
        Files.writeString(paimon.warehouse().getParent().resolve("sentinel"), "untouched");
    }

    @Test
    void pathLikeAndReservedNamesAreRefusedAndWriteNothing()
    {
        Set<String> before = allFiles();
        for (String table : List.of(".", "..", "../x", "../../x", "a/b", "a\\b", ".hidden", "x$snapshots", "t$branch_b", "a".repeat(256))) {
            assertQueryFails("CREATE TABLE \"%s\" (k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1)".formatted(table),
                    Pattern.quote("Invalid table name '%s'".formatted(table)) + ".*");
            assertQueryFails("CREATE TABLE \"%s\" AS SELECT 1 k".formatted(table), Pattern.quote("Invalid table name '%s'".formatted(table)) + ".*");
            // a lookup under such a name finds no table, and nothing is read outside the database
            assertQueryFails("SELECT * FROM \"%s\"".formatted(table), ".*(does not exist|not found).*");
            assertQueryFails("DROP TABLE \"%s\"".formatted(table), ".*(does not exist|not found).*");
        }
        for (String schema : List.of(".", "..", "../x", "../../x", "a/b", "a\\b", ".hidden", "x$y", "sys", "a".repeat(253))) {
            assertQueryFails("CREATE SCHEMA \"%s\"".formatted(schema), Pattern.quote("Invalid schema name '%s'".formatted(schema)) + ".*");
            assertQueryFails("CREATE TABLE \"%s\".t (k integer)".formatted(schema), ".*(Invalid schema name|does not exist|not found).*");
            assertQueryFails("DROP SCHEMA \"%s\"".formatted(schema), ".*(does not exist|not found).*");
        }
        assertThat(allFiles()).isEqualTo(before);
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).containsExactlyInAnyOrder(DATABASE, "information_schema");
    }

    @Test
    void plainFolderNamesRoundTrip()
    {
        for (String table : List.of(" leading space", "trailing space ", "a.db", "カラム", "a..b", "a".repeat(255))) {
            String quoted = "\"" + table + "\"";
            assertUpdate("CREATE TABLE %s (k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1)".formatted(quoted));
            assertUpdate("INSERT INTO %s VALUES (1, 'one'), (2, 'two')".formatted(quoted), 2);
            assertQuery("SELECT * FROM " + quoted, "VALUES (1, 'one'), (2, 'two')");
            Path folder = paimon().warehouse().resolve(DATABASE + ".db").resolve(table);
            assertThat(folder.resolve("schema/schema-0")).as(table).exists();
            assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table))).as(table).containsExactly("+I(1, one)", "+I(2, two)");
            assertUpdate("DROP TABLE " + quoted);
            assertThat(folder).as(table).doesNotExist();
        }
        assertUpdate("CREATE SCHEMA \"odd schema.db\"");
        assertThat(paimon().warehouse().resolve("odd schema.db.db")).isDirectory();
        assertUpdate("DROP SCHEMA \"odd schema.db\"");
        assertThat(paimon().warehouse().resolve("odd schema.db.db")).doesNotExist();
    }

    // every file and folder under the warehouse's parent, which holds the warehouse and the sentinel
    private Set<String> allFiles()
    {
        Path root = paimon().warehouse().getParent();
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(file -> root.relativize(file) + (Files.isDirectory(file) ? "/" : " " + size(file))).collect(Collectors.toSet());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file)
    {
        try {
            return Files.size(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
