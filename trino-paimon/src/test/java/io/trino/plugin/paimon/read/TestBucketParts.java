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
import io.trino.testing.MaterializedResult;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bucket larger than {@code max_split_size} is read as several splits, cut between its sections (files whose key
 * ranges overlap), so a hot bucket is read in parallel: the rows are Paimon Java's whatever the split size, the number
 * of splits is the number of sections worked out here from Paimon Java's file list, a bucket whose files all overlap
 * stays one split, and an UPDATE over the parts writes what Paimon Java reads back.
 */
final class TestBucketParts
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "parts";
    private static final int ROWS = 6000;

    TestBucketParts()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("sectioned", "overlapped")) {
            // files roll at about a thousand records past a tiny target size: a full compaction writes several
            Table table = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "1")
                    .option("target-file-size", "1kb")
                    .option("write-only", "true")
                    .build());
            PaimonJavaCatalog.write(table, rows(0, ROWS, 1, "first"));
            PaimonJavaCatalog.write(table, rows(0, ROWS, 3, "second"));
            PaimonJavaCatalog.compact(table, root(), 1, _ -> true);
            // a level-0 run over a narrow key range, or over all of them
            PaimonJavaCatalog.write(table, name.equals("sectioned") ? rows(1500, 1600, 1, "third") : rows(0, ROWS, 1000, "third"));
        }
    }

    @Test
    void largeBucketIsReadInPartsCutBetweenSections()
    {
        List<String> expected = paimonRows("sectioned");
        int sections = sections("sectioned");
        assertThat(sections).isGreaterThan(2);

        ScanStatistics whole = ScanStatistics.execute(getQueryRunner(), "SELECT * FROM sectioned");
        assertThat(whole.splits()).isEqualTo(1);
        ScanStatistics parts = ScanStatistics.execute(getQueryRunner(), smallSplits(), "SELECT * FROM sectioned");
        assertThat(parts.splits()).isEqualTo(sections);
        assertThat(sorted(parts.result())).isEqualTo(expected).isEqualTo(sorted(whole.result()));
        assertThat(expected).hasSize(ROWS).contains("(1500, third)", "(3, second)", "(4, first)");
        assertThat(computeActual(smallSplits(), "SELECT count(*), count(DISTINCT id) FROM sectioned").getMaterializedRows().getFirst().getFields())
                .containsExactly((long) ROWS, (long) ROWS);

        // an UPDATE reads its rows from the parts too
        assertUpdate(smallSplits(), "UPDATE sectioned SET v = 'updated' WHERE id % 500 = 0", ROWS / 500);
        assertThat(paimonRows("sectioned")).hasSize(ROWS).contains("(1500, updated)", "(500, updated)", "(1501, third)")
                .isEqualTo(sorted(computeActual(smallSplits(), "SELECT * FROM sectioned")));
        assertThat(fsckViolations("sectioned")).isEmpty();
    }

    @Test
    void bucketWhoseFilesAllOverlapStaysOneSplit()
    {
        assertThat(sections("overlapped")).isEqualTo(1);
        ScanStatistics parts = ScanStatistics.execute(getQueryRunner(), smallSplits(), "SELECT * FROM overlapped");
        assertThat(parts.splits()).isEqualTo(1);
        assertThat(sorted(parts.result())).isEqualTo(paimonRows("overlapped"));
    }

    private Session smallSplits()
    {
        return Session.builder(getSession())
                .setCatalogSessionProperty(CATALOG, "max_split_size", "1B")
                .build();
    }

    // the bucket's files grouped by overlapping key ranges, from Paimon Java's plan of the latest snapshot
    private int sections(String name)
    {
        FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, name);
        List<DataFileMeta> files = new ArrayList<>();
        table.newReadBuilder().newScan().plan().splits().forEach(split -> files.addAll(((DataSplit) split).dataFiles()));
        files.sort(Comparator.comparingInt(file -> file.minKey().getInt(0)));
        int sections = 0;
        int end = Integer.MIN_VALUE;
        for (DataFileMeta file : files) {
            if (sections == 0 || file.minKey().getInt(0) > end) {
                sections++;
                end = file.maxKey().getInt(0);
            }
            else {
                end = Math.max(end, file.maxKey().getInt(0));
            }
        }
        return sections;
    }

    private List<String> paimonRows(String name)
    {
        return sorted(RowText.paimonText(paimon().getTable(DATABASE, name)));
    }

    private static List<String> sorted(MaterializedResult result)
    {
        return sorted(RowText.paimonText(result));
    }

    private static List<String> sorted(List<String> rows)
    {
        return rows.stream().sorted().toList();
    }

    // ids from, from + step, … below to
    private static List<GenericRow> rows(int from, int to, int step, String value)
    {
        return IntStream.iterate(from, id -> id < to, id -> id + step)
                .mapToObj(id -> GenericRow.of(id, BinaryString.fromString(value)))
                .toList();
    }
}
