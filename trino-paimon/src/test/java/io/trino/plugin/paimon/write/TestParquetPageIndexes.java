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
package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parquet files the connector writes carry column and offset indexes, as Paimon's writer's files do, with pages of
 * at most {@code parquet.page.row.count.limit} rows: a point lookup on the primary key decodes one page of each
 * sorted run instead of the whole file, merged reads stay exact, and Paimon Java reads the files.
 */
final class TestParquetPageIndexes
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "page_indexes";
    private static final int KEYS = 20_000;
    private static final int PAGE_ROWS = 500;
    // 20,000 keys in one statement: one file and one row group per run (the default row group holds 128 MB)
    private static final String KEY_SEQUENCE = "SELECT x * 100 + y AS id FROM UNNEST(sequence(0, 199)) a(x) CROSS JOIN UNNEST(sequence(0, 99)) b(y)";

    TestParquetPageIndexes()
    {
        super(DATABASE);
    }

    private void createKeyedTable(String table, String keyType)
    {
        assertUpdate("""
                CREATE TABLE %s (id %s NOT NULL, name varchar, v integer)
                WITH (primary_key = ARRAY['id'], bucket = 1,
                      options = ARRAY['write-only=true', 'parquet.page.row.count.limit=%s'])
                """.formatted(table, keyType, PAGE_ROWS));
    }

    @Test
    void pointLookupDecodesOnePagePerSortedRun()
    {
        createKeyedTable("numbers", "bigint");
        assertUpdate("INSERT INTO numbers SELECT id, 'name-' || CAST(id AS varchar), CAST(id AS integer) FROM (" + KEY_SEQUENCE + ")", KEYS);

        ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM numbers");
        assertThat(whole.result().getRowCount()).isEqualTo(KEYS);
        assertThat(whole.physicalInputRows()).isEqualTo(KEYS);
        ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT id, name, v FROM numbers WHERE id = 12345");
        assertThat(lookup.result().getMaterializedRows()).hasSize(1);
        assertThat(lookup.result().getMaterializedRows().getFirst().getFields()).containsExactly(12345L, "name-12345", 12345);
        // one page of the one run: the page that holds 12345 (12000..12499)
        assertThat(lookup.physicalInputRows()).isLessThanOrEqualTo(PAGE_ROWS);

        // a second run rewrites every even key: the merge still picks the newest record of each key
        assertUpdate("INSERT INTO numbers SELECT id, 'new-' || CAST(id AS varchar), CAST(id AS integer) + 1000000 FROM (" + KEY_SEQUENCE + ") WHERE id % 2 = 0", KEYS / 2);
        ScanStatistics even = ScanStatistics.execute(getQueryRunner(), "SELECT id, name, v FROM numbers WHERE id = 12346");
        assertThat(even.result().getMaterializedRows().getFirst().getFields()).containsExactly(12346L, "new-12346", 1012346);
        // one page of each of the two runs (the second run's pages hold 500 of its 10,000 even keys each)
        assertThat(even.physicalInputRows()).isLessThanOrEqualTo(2 * PAGE_ROWS);
        ScanStatistics odd = ScanStatistics.execute(getQueryRunner(), "SELECT id, name, v FROM numbers WHERE id = 12345");
        assertThat(odd.result().getMaterializedRows().getFirst().getFields()).containsExactly(12345L, "name-12345", 12345);
        assertThat(odd.physicalInputRows()).isLessThanOrEqualTo(2 * PAGE_ROWS);
        assertQuery("SELECT count(*), sum(v), count_if(name LIKE 'new-%') FROM numbers WHERE id BETWEEN 100 AND 199",
                "VALUES (100, %s, 50)".formatted(sumOf(100, 199) + 50 * 1_000_000L));

        // Paimon Java reads the files Trino wrote, with their indexes, as Trino reads them
        assertThat(fsckViolations("numbers")).isEmpty();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "numbers"))).hasSize(KEYS).contains("+I(12345, name-12345, 12345)", "+I(12346, new-12346, 1012346)");
    }

    @Test
    void pointLookupOnTableOneCreateTableAsWroteDecodesOnePagePerSortedRun()
    {
        // one statement writes each bucket as one sorted run of one file, in row groups of 64 kB of several pages each
        assertUpdate("""
                CREATE TABLE created_as
                WITH (primary_key = ARRAY['id'], bucket = 2,
                      options = ARRAY['parquet.page.row.count.limit=%s', 'parquet.block.size=65536'])
                AS SELECT id, 'name-' || CAST(id AS varchar) AS name, CAST(id AS integer) AS v, id * 7 AS w FROM (%s)
                """.formatted(PAGE_ROWS, KEY_SEQUENCE), KEYS);
        long rowGroups = 0;
        for (int key : List.of(0, 7777, 12345, KEYS - 1)) {
            ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT name, v, w FROM created_as WHERE id = " + key);
            assertThat(lookup.result().getMaterializedRows()).hasSize(1);
            assertThat(lookup.result().getMaterializedRows().getFirst().getFields()).containsExactly("name-" + key, key, key * 7L);
            assertThat(lookup.filesOpened()).isEqualTo(1);
            assertThat(lookup.rowGroupsRead()).isEqualTo(1);
            // one page of the one sorted run
            assertThat(lookup.physicalInputRows()).as("key %s", key).isLessThanOrEqualTo(PAGE_ROWS);
            rowGroups = lookup.rowGroupsRead() + lookup.rowGroupsSkipped();
        }
        assertThat(rowGroups).isGreaterThan(1);
        assertThat(fsckViolations("created_as")).isEmpty();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "created_as"))).hasSize(KEYS).contains("+I(12345, name-12345, 12345, 86415)");
    }

    @Test
    void pointLookupOnLongStringKeysDecodesOnePage()
    {
        // keys of 80 bytes: the page bounds are cut to 64 bytes, and still hold every key of their page
        createKeyedTable("strings", "varchar");
        assertUpdate("INSERT INTO strings SELECT " + stringKey("CAST(id AS varchar)") + ", 'name-' || CAST(id AS varchar), CAST(id AS integer) FROM (" + KEY_SEQUENCE + ")", KEYS);
        for (int key : List.of(0, 499, 500, 12345, KEYS - 1)) {
            ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT name FROM strings WHERE id = " + stringKey("'%s'".formatted(key)));
            assertThat(lookup.result().getOnlyColumnAsSet()).containsExactly("name-" + key);
            assertThat(lookup.physicalInputRows()).as("key %s", key).isLessThanOrEqualTo(PAGE_ROWS);
        }
        assertThat(fsckViolations("strings")).isEmpty();
    }

    @Test
    void pagesEndingBySizeAndSeveralRowGroupsAreIndexed()
    {
        // pages of 2 kB end before 500 rows, and row groups of 64 kB make several per file: each row group gets its
        // own indexes, pointing at pages that end wherever the writer ended them
        assertUpdate("""
                CREATE TABLE small_pages (id bigint NOT NULL, name varchar, v integer)
                WITH (primary_key = ARRAY['id'], bucket = 1,
                      options = ARRAY['parquet.page.row.count.limit=%s', 'parquet.page.size=2048', 'parquet.block.size=65536'])
                """.formatted(PAGE_ROWS));
        assertUpdate("INSERT INTO small_pages SELECT id, to_hex(md5(to_utf8(CAST(id AS varchar)))), CAST(id AS integer) FROM (" + KEY_SEQUENCE + ")", KEYS);
        for (int key : List.of(0, 7777, KEYS - 1)) {
            ScanStatistics lookup = ScanStatistics.execute(getQueryRunner(), "SELECT v FROM small_pages WHERE id = " + key);
            assertThat(lookup.result().getOnlyColumnAsSet()).containsExactly(key);
            assertThat(lookup.rowGroupsRead()).isEqualTo(1);
            assertThat(lookup.rowGroupsSkipped()).isGreaterThan(3);
            assertThat(lookup.physicalInputRows()).as("key %s", key).isLessThanOrEqualTo(PAGE_ROWS);
        }
        assertThat(fsckViolations("small_pages")).isEmpty();
    }

    @Test
    void deletionVectorsApplyToThePagesRead()
    {
        // the reader numbers the rows of the pages it reads by their place in the file, which the deletion vectors name
        assertUpdate("""
                CREATE TABLE with_vectors (id bigint NOT NULL, name varchar, v integer)
                WITH (primary_key = ARRAY['id'], bucket = 1, deletion_vectors_enabled = true,
                      options = ARRAY['parquet.page.row.count.limit=%s'])
                """.formatted(PAGE_ROWS));
        assertUpdate("INSERT INTO with_vectors SELECT id, 'name-' || CAST(id AS varchar), CAST(id AS integer) FROM (" + KEY_SEQUENCE + ")", KEYS);
        assertUpdate("DELETE FROM with_vectors WHERE id % 1000 = 345", KEYS / 1000);
        assertUpdate("UPDATE with_vectors SET v = -v WHERE id % 1000 = 346", KEYS / 1000);
        assertQueryReturnsEmptyResult("SELECT * FROM with_vectors WHERE id = 12345");
        assertQuery("SELECT id, name, v FROM with_vectors WHERE id IN (12344, 12346, 12347)", "VALUES (12344, 'name-12344', 12344), (12346, 'name-12346', -12346), (12347, 'name-12347', 12347)");
        assertQuery("SELECT count(*), sum(v) FROM with_vectors WHERE id BETWEEN 12000 AND 12999", "VALUES (999, %s)".formatted(sumOf(12000, 12999) - 12345 - 2 * 12346));
        assertThat(fsckViolations("with_vectors")).isEmpty();
    }

    @Test
    void filesWithRepeatedColumnsReadWhole()
    {
        // an array column's pages do not show their first rows: such files keep Trino's writer's ending, and read
        createKeyedTable("with_arrays", "bigint");
        assertUpdate("ALTER TABLE with_arrays ADD COLUMN tags array(varchar)");
        assertUpdate("INSERT INTO with_arrays SELECT id, 'name-' || CAST(id AS varchar), CAST(id AS integer), ARRAY[CAST(id AS varchar), 'x'] FROM (" + KEY_SEQUENCE + ")", KEYS);
        assertQuery("SELECT name, tags[1] FROM with_arrays WHERE id = 777", "VALUES ('name-777', '777')");
        assertQuery("SELECT count(*), count(DISTINCT tags[1]) FROM with_arrays", "VALUES (%s, %s)".formatted(KEYS, KEYS));
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "with_arrays"))).hasSize(KEYS);
    }

    // 'key-', six digits, then 70 letters: keys differ within the 64 bytes a page bound keeps
    private static String stringKey(String digits)
    {
        return "'key-' || lpad(%s, 6, '0') || '%s'".formatted(digits, "x".repeat(70));
    }

    private static long sumOf(long from, long to)
    {
        List<Long> values = new ArrayList<>();
        for (long value = from; value <= to; value++) {
            values.add(value);
        }
        return values.stream().mapToLong(Long::longValue).sum();
    }
}
