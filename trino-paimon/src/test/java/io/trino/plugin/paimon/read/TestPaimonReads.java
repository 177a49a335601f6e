package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.testing.MaterializedRow;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code SELECT} through Trino returns exactly the rows Paimon Java reads from the same snapshot: several level-0
 * runs, mixed levels after a full compaction, deletion vectors, several schema versions, an append table.
 */
final class TestPaimonReads
        extends AbstractPaimonJavaQueryTest
{

    @Override
    protected String defaultSchema()
    {
        return DATABASE;
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        new PaimonTestTables(paimon, root().toString()).createAll();
    }

    @Test
    void selectAllEqualsPaimonJava()
    {
        for (String table : PaimonTestTables.ALL) {
            List<String> expected = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
            assertThat(expected).as(table).isNotEmpty();
            assertThat(rows("SELECT * FROM " + table)).as(table).isEqualTo(expected);
        }
    }

    @Test
    void columnsRenamedAndDroppedAfterFilesWereWritten()
    {
        // files of schema 0 and 1 know full_name as name, and still hold the dropped score
        assertThat(computeActual("SELECT column_name FROM information_schema.columns WHERE table_name = '%s'".formatted(PaimonTestTables.EVOLVED)).getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("dt", "id", "full_name", "extra");
        assertThat(computeScalar("SELECT count(*) FROM %s WHERE full_name = 'renamed'".formatted(PaimonTestTables.EVOLVED))).isNotEqualTo(0L);
        assertThat(computeScalar("SELECT count(*) FROM %s WHERE full_name LIKE 'n%%'".formatted(PaimonTestTables.EVOLVED))).isNotEqualTo(0L);
    }

    @Test
    void projectionsAndCountsEqualPaimonJava()
    {
        for (String table : List.of(PaimonTestTables.MULTI_COMMIT, PaimonTestTables.COMPACTED, PaimonTestTables.DELETION_VECTORS)) {
            List<String> expected = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table));
            assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo((long) expected.size());
            // the name column alone, and a column order other than the table's
            List<String> names = expected.stream().map(row -> row.split(", ")[2]).sorted().toList();
            assertThat(computeActual("SELECT name FROM " + table).getOnlyColumn().map(String.class::cast).sorted().toList()).isEqualTo(names);
            List<String> reordered = computeActual("SELECT score, id, dt FROM " + table).getMaterializedRows().stream()
                    .map(row -> row.getField(2) + "|" + row.getField(1) + "|" + row.getField(0))
                    .sorted()
                    .toList();
            assertThat(reordered).isEqualTo(expected.stream()
                    .map(row -> row.substring(3, row.length() - 1).split(", "))
                    .map(fields -> fields[0] + "|" + fields[1] + "|" + fields[3])
                    .sorted()
                    .toList());
        }
    }

    private List<String> rows(String sql)
    {
        return computeActual(sql).getMaterializedRows().stream()
                .map(TestPaimonReads::format)
                .sorted()
                .toList();
    }

    // the text form PaimonJavaCatalog.readRows uses
    private static String format(MaterializedRow row)
    {
        return row.getFields().stream()
                .map(String::valueOf)
                .collect(Collectors.joining(", ", "+I(", ")"));
    }
}
