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
package io.trino.plugin.paimon.read;

import io.trino.Session;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fact table partitioned by day with many buckets, joined with small filtered dimensions: the join's dynamic
 * filter prunes the fact table's partitions, buckets and files (fewer splits and files read than with dynamic
 * filtering off), and the rows are the same either way and equal Paimon Java's. A dynamic filter on a value column
 * never prunes a bucket's files before the merge.
 */
final class TestDynamicFiltering
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "dynamic_filtering";
    private static final int DAYS = 10;
    private static final int BUCKETS = 8;
    private static final int IDS = 400;

    TestDynamicFiltering()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // two sorted runs per bucket: the second changes the amount of every third id
        Table sales = paimon.createTable(DATABASE, "sales", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("amount", DataTypes.BIGINT())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", String.valueOf(BUCKETS))
                .option("write-only", "true")
                .build());
        List<GenericRow> first = new ArrayList<>();
        List<GenericRow> second = new ArrayList<>();
        for (int day = 1; day <= DAYS; day++) {
            for (int id = 0; id < IDS; id++) {
                first.add(GenericRow.of(BinaryString.fromString(day(day)), id, (long) id));
                if (id % 3 == 0) {
                    second.add(GenericRow.of(BinaryString.fromString(day(day)), id, 100_000L + id));
                }
            }
        }
        PaimonJavaCatalog.write(sales, first);
        PaimonJavaCatalog.write(sales, second);

        Table calendar = paimon.createTable(DATABASE, "calendar", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("holiday", DataTypes.BOOLEAN())
                .build());
        List<GenericRow> days = new ArrayList<>();
        for (int day = 1; day <= DAYS; day++) {
            days.add(GenericRow.of(BinaryString.fromString(day(day)), day == 4));
        }
        PaimonJavaCatalog.write(calendar, days);

        Table picks = paimon.createTable(DATABASE, "picks", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .build());
        PaimonJavaCatalog.write(picks, List.of(GenericRow.of(7), GenericRow.of(300)));

        paimon.createTable(DATABASE, "nobody", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .build());

        // amounts that ids 0, 3 and 6 had before the second run changed them, and the unchanged amount of id 7
        Table amounts = paimon.createTable(DATABASE, "amounts", Schema.newBuilder()
                .column("amount", DataTypes.BIGINT())
                .build());
        PaimonJavaCatalog.write(amounts, List.of(GenericRow.of(0L), GenericRow.of(3L), GenericRow.of(6L), GenericRow.of(7L)));
    }

    private static String day(int day)
    {
        return "2026-11-%02d".formatted(day);
    }

    @Test
    void partitionsArePrunedByTheJoinsDynamicFilter()
    {
        String sql = "SELECT s.dt, s.id, s.amount FROM sales s JOIN calendar c ON s.dt = c.dt WHERE c.holiday";
        Scans scans = runBothWays(sql, fields -> fields.get(0).equals(day(4)));
        // one day of ten: the other nine days' buckets are not planned
        assertThat(scans.off().splits() - scans.on().splits()).isEqualTo((DAYS - 1) * BUCKETS);
        assertThat(scans.on().filesOpened()).isLessThan(scans.off().filesOpened());
        assertThat(scans.on().physicalInputBytes()).isLessThan(scans.off().physicalInputBytes());
    }

    @Test
    void bucketsAndFilesArePrunedByTheJoinsDynamicFilter()
    {
        String sql = "SELECT s.dt, s.id, s.amount FROM sales s JOIN picks p ON s.id = p.id";
        Scans scans = runBothWays(sql, fields -> Set.of("7", "300").contains(fields.get(1)));
        // ids 7 and 300 lie in at most two of a day's eight buckets
        assertThat(scans.off().splits() - scans.on().splits()).isGreaterThanOrEqualTo((long) (BUCKETS - 2) * DAYS);
        assertThat(scans.on().filesOpened()).isLessThan(scans.off().filesOpened());
    }

    @Test
    void valueColumnFiltersNeverPruneBeforeTheMerge()
    {
        // the old amounts of ids 0, 3 and 6 are still in each bucket's first run; only id 7's row matches now
        String sql = "SELECT s.dt, s.id, s.amount FROM sales s JOIN amounts a ON s.amount = a.amount";
        Scans scans = runBothWays(sql, fields -> fields.get(1).equals("7"));
        assertThat(scans.on().result().getRowCount()).isEqualTo(DAYS);
        assertThat(scans.on().rowGroupsSkipped()).isZero();
    }

    @Test
    void emptyBuildSideReadsNothing()
    {
        ScanStatistics on = ScanStatistics.execute(getQueryRunner(), dynamicFilteringOn(),
                "SELECT s.dt, s.id FROM sales s JOIN nobody n ON s.id = n.id");
        assertThat(on.result().getRowCount()).isZero();
        assertThat(on.filesOpened()).isZero();
    }

    // the query's rows with dynamic filtering on and off are the same, and equal Paimon Java's rows of sales that
    // the join (written in Java) keeps
    private Scans runBothWays(String sql, Predicate<List<String>> expected)
    {
        List<String> expectedRows = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "sales")).stream()
                .map(row -> List.of(row.substring(3, row.length() - 1).split(", ")))
                .filter(expected)
                .map(fields -> "(" + String.join(", ", fields) + ")")
                .sorted()
                .toList();
        ScanStatistics on = ScanStatistics.execute(getQueryRunner(), dynamicFilteringOn(), sql);
        ScanStatistics off = ScanStatistics.execute(getQueryRunner(), dynamicFilteringOff(), sql);
        assertThat(RowText.paimonText(on.result())).as("%s with dynamic filtering", sql).isEqualTo(expectedRows);
        assertThat(RowText.paimonText(off.result())).as("%s without dynamic filtering", sql).isEqualTo(expectedRows);
        return new Scans(on, off);
    }

    // the dimension is the build side; planning waits for its filter as long as the build takes
    private Session dynamicFilteringOn()
    {
        return Session.builder(getSession())
                .setSystemProperty("join_distribution_type", "BROADCAST")
                .setSystemProperty("join_reordering_strategy", "NONE")
                .setCatalogSessionProperty(CATALOG, "dynamic_filtering_wait_timeout", "10m")
                .build();
    }

    private Session dynamicFilteringOff()
    {
        return Session.builder(dynamicFilteringOn())
                .setSystemProperty("enable_dynamic_filtering", "false")
                .build();
    }

    private record Scans(ScanStatistics on, ScanStatistics off) {}
}
