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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.plugin.paimon.testing.ScanStatistics;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Predicates on partition, bucket-key and primary-key columns prune partitions, buckets and files, and the rows
 * read still equal Paimon Java's rows filtered by the same predicate (Trino applies the predicate after the merge).
 */
final class TestPaimonPredicatePushdown
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "pushdown";

    TestPaimonPredicatePushdown()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        // keys 0..999, then updates of 0..99, deletes of 500..509, inserts of 2000..2099: four level-0 runs
        Table keyed = paimon.createTable(DATABASE, "keyed", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "4")
                .option("write-only", "true")
                .build());
        PaimonJavaCatalog.write(keyed, rows(0, 1000, RowKind.INSERT, 1));
        PaimonJavaCatalog.write(keyed, rows(0, 100, RowKind.INSERT, 2));
        PaimonJavaCatalog.write(keyed, rows(500, 510, RowKind.DELETE, 1));
        PaimonJavaCatalog.write(keyed, rows(2000, 2100, RowKind.INSERT, 1));

        Table partitioned = paimon.createTable(DATABASE, "partitioned", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.INT())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "2")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (String day : List.of("2026-11-01", "2026-11-02", "2026-11-03")) {
                for (int id = 0; id < 50; id++) {
                    rows.add(GenericRow.of(BinaryString.fromString(day), id, commit * 100 + id));
                }
            }
            PaimonJavaCatalog.write(partitioned, rows);
        }

        // composite key bucketed by its second column
        Table composite = paimon.createTable(DATABASE, "composite", Schema.newBuilder()
                .column("region", DataTypes.STRING())
                .column("shop", DataTypes.INT())
                .column("amount", DataTypes.DECIMAL(12, 2))
                .primaryKey("region", "shop")
                .option("bucket", "3")
                .option("bucket-key", "shop")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (String region : List.of("east", "north", "south", "west")) {
                for (int shop = 0; shop < 20; shop += commit + 1) {
                    rows.add(GenericRow.of(BinaryString.fromString(region), shop, Decimal.fromUnscaledLong(commit * 1000L + shop, 12, 2)));
                }
            }
            PaimonJavaCatalog.write(composite, rows);
        }

        // a string key: its bucket is the hash of the key's binary row, and its files are ordered bytewise
        Table named = paimon.createTable(DATABASE, "named", Schema.newBuilder()
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey("name")
                .option("bucket", "4")
                .option("write-only", "true")
                .build());
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 100; i += commit + 1) {
                rows.add(GenericRow.of(BinaryString.fromString("k" + i), commit * 1000 + i));
            }
            PaimonJavaCatalog.write(named, rows);
        }

        // deletion vectors: compacted files whose old rows are marked deleted, never to be read again
        Table deletionVectors = paimon.createTable(DATABASE, "deletion_vectors", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "2")
                .option("deletion-vectors.enabled", "true")
                .build());
        List<GenericRow> first = new ArrayList<>();
        for (int id = 0; id < 200; id++) {
            first.add(GenericRow.of(id, id));
        }
        PaimonJavaCatalog.write(deletionVectors, first);
        PaimonJavaCatalog.write(deletionVectors, List.of(GenericRow.of(7, 700), GenericRow.ofKind(RowKind.DELETE, 8, 8), GenericRow.of(150, 1500)));
    }

    private static List<GenericRow> rows(long from, long to, RowKind kind, int version)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.ofKind(kind, id, BinaryString.fromString("name-" + id + "-" + version), (int) (id * version)));
        }
        return rows;
    }

    @Test
    void pointLookupOpensOneBucketAndOnlyTheRunsHoldingTheKey()
    {
        // key 5 lies in the ranges of the first two runs of its bucket only
        assertLookup("keyed", "id = 5", fields -> fields.get(0).equals("5"), 1, 2);
        assertLookup("keyed", "id = 2050", fields -> fields.get(0).equals("2050"), 1, 1);
        // a deleted key stays deleted
        assertLookup("keyed", "id = 505", fields -> fields.get(0).equals("505"), 1, 2);
        assertLookup("keyed", "id = 100000", _ -> false, 1, 0);
    }

    @Test
    void keyRangesAndListsReadOnlyFilesThatCanHoldThem()
    {
        ScanStatistics range = assertRows("keyed", "id BETWEEN 2010 AND 2020", fields -> between(fields.get(0), 2010, 2020));
        // each bucket's last run holds the keys 2000..2099; the other runs end below 1000
        assertThat(range.filesOpened()).isEqualTo(range.splits());
        assertRows("keyed", "id IN (3, 503, 2003, 99999)", fields -> List.of("3", "503", "2003").contains(fields.get(0)));
        assertRows("keyed", "id > 995", fields -> Long.parseLong(fields.get(0)) > 995);
        assertRows("keyed", "id < 0", _ -> false);
    }

    @Test
    void valuePredicatesApplyAfterTheMerge()
    {
        // v of keys 0..99 was doubled by the second run: the first run's value must not reappear
        assertRows("keyed", "v = 10", fields -> fields.get(2).equals("10"));
        assertRows("keyed", "id = 10 AND v = 10", _ -> false);
        assertRows("keyed", "id = 10 AND v = 20", fields -> fields.get(0).equals("10"));
        assertRows("keyed", "name LIKE 'name-5%'", fields -> fields.get(1).startsWith("name-5"));
    }

    @Test
    void partitionPredicatesReadOnlyTheirPartitions()
    {
        ScanStatistics day = assertRows("partitioned", "dt = '2026-11-02'", fields -> fields.get(0).equals("2026-11-02"));
        assertThat(day.splits()).isEqualTo(2);
        ScanStatistics lookup = assertRows("partitioned", "dt = '2026-11-02' AND id = 7", fields -> fields.get(0).equals("2026-11-02") && fields.get(1).equals("7"));
        assertThat(lookup.splits()).isEqualTo(1);
        assertThat(lookup.filesOpened()).isEqualTo(2);
        ScanStatistics idOnly = assertRows("partitioned", "id = 7", fields -> fields.get(1).equals("7"));
        assertThat(idOnly.splits()).isEqualTo(3);
        assertRows("partitioned", "dt IN ('2026-11-01', '2026-11-03') AND id BETWEEN 10 AND 12", fields -> !fields.get(0).equals("2026-11-02") && between(fields.get(1), 10, 12));
        assertThat(assertRows("partitioned", "dt = '2027-01-01'", _ -> false).filesOpened()).isEqualTo(0);
    }

    @Test
    void bucketKeyOtherThanTheFirstKeyColumnPrunesBuckets()
    {
        ScanStatistics shop = assertRows("composite", "shop = 6", fields -> fields.get(1).equals("6"));
        assertThat(shop.splits()).isEqualTo(1);
        ScanStatistics shops = assertRows("composite", "shop IN (6, 7)", fields -> List.of("6", "7").contains(fields.get(1)));
        assertThat(shops.splits()).isBetween(1L, 2L);
        ScanStatistics shopRange = assertRows("composite", "shop BETWEEN 4 AND 5", fields -> between(fields.get(1), 4, 5));
        assertThat(shopRange.splits()).isBetween(1L, 2L);
        assertRows("composite", "region = 'north'", fields -> fields.get(0).equals("north"));
        assertRows("composite", "region >= 'south' AND shop = 12", fields -> fields.get(0).compareTo("south") >= 0 && fields.get(1).equals("12"));
        assertRows("composite", "amount = 2006.00", fields -> fields.get(2).equals("2006.00"));
    }

    @Test
    void stringKeysPruneBucketsAndFiles()
    {
        // both runs of the key's bucket span k0..k9x bytewise
        assertLookup("named", "name = 'k42'", fields -> fields.get(0).equals("k42"), 1, 2);
        assertLookup("named", "name = 'k43'", fields -> fields.get(0).equals("k43"), 1, 2);
        // above every file's range
        assertLookup("named", "name = 'zz'", _ -> false, 1, 0);
        assertRows("named", "name BETWEEN 'k5' AND 'k6'", fields -> fields.get(0).compareTo("k5") >= 0 && fields.get(0).compareTo("k6") <= 0);
        assertRows("named", "name IN ('k1', 'k10', 'k100')", fields -> List.of("k1", "k10").contains(fields.get(0)));
    }

    @Test
    void deletionVectorFilesKeepTheirVectorsWhenPruned()
    {
        assertLookup("deletion_vectors", "id = 8", _ -> false, 1, 1);
        assertRows("deletion_vectors", "id = 7", fields -> fields.get(0).equals("7"));
        assertRows("deletion_vectors", "id BETWEEN 5 AND 9", fields -> between(fields.get(0), 5, 9));
        assertRows("deletion_vectors", "id >= 150", fields -> Long.parseLong(fields.get(0)) >= 150);
    }

    private void assertLookup(String table, String predicate, Predicate<List<String>> expected, long splits, long filesOpened)
    {
        ScanStatistics statistics = assertRows(table, predicate, expected);
        assertThat(statistics.splits()).as("splits of %s WHERE %s", table, predicate).isEqualTo(splits);
        assertThat(statistics.filesOpened()).as("files opened by %s WHERE %s", table, predicate).isEqualTo(filesOpened);
    }

    // the rows through Trino equal Paimon Java's rows of the whole table that the predicate (written in Java) keeps
    private ScanStatistics assertRows(String table, String predicate, Predicate<List<String>> expected)
    {
        List<String> expectedRows = PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, table)).stream()
                .filter(row -> expected.test(Arrays.asList(row.substring(3, row.length() - 1).split(", "))))
                .toList();
        ScanStatistics statistics = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM %s WHERE %s".formatted(table, predicate));
        List<String> actual = statistics.result().getMaterializedRows().stream()
                .map(row -> "+I" + RowText.paimonText(row))
                .sorted()
                .toList();
        assertThat(actual).as("%s WHERE %s", table, predicate).isEqualTo(expectedRows);
        return statistics;
    }

    private static boolean between(String value, long low, long high)
    {
        long number = Long.parseLong(value);
        return number >= low && number <= high;
    }
}
