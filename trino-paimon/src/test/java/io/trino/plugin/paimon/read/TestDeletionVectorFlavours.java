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
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deletion vectors of both flavours Paimon 1.4.2 writes, 32-bit and {@code deletion-vectors.bitmap64}: the same
 * three commits of updates, written by Paimon Java into one table of each, read by Trino as Paimon Java reads them.
 */
final class TestDeletionVectorFlavours
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "dv";

    TestDeletionVectorFlavours()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (boolean bitmap64 : List.of(false, true)) {
            String name = bitmap64 ? "dv64" : "dv32";
            Schema schema = Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .option("deletion-vectors.enabled", "true")
                    .option("deletion-vectors.bitmap64", Boolean.toString(bitmap64))
                    .build();
            var table = paimon.createTable(DATABASE, name, schema);
            PaimonJavaCatalog.write(table, rows(0, 200, "first"));
            // each commit's level-0 run is much smaller than the runs below it, so Paimon's lookup compaction moves it
            // up one level and marks the rows it replaces in the deeper runs with deletion vectors
            PaimonJavaCatalog.write(table, rows(0, 40, "second"));
            PaimonJavaCatalog.write(table, rows(35, 45, "third"));
        }
    }

    @Test
    void bothFlavoursReadAsPaimonJavaReadsThem()
            throws IOException
    {
        for (String name : List.of("dv32", "dv64")) {
            FileStoreTable table = (FileStoreTable) paimon().getTable(DATABASE, name);
            List<String> expected = PaimonJavaCatalog.readRows(table).stream().map(row -> row.substring(row.indexOf('('))).sorted().toList();
            // keys 0-34 second, 35-44 third, 45-199 first
            assertThat(expected).hasSize(200).contains("(0, second)", "(35, third)", "(44, third)", "(45, first)", "(199, first)");
            assertThat(RowText.paimonText(computeActual("SELECT id, v FROM " + name))).as(name).isEqualTo(expected);
            // the table really holds deletion vectors of its flavour
            assertThat(deletionVectorMagics(table)).as(name).isNotEmpty()
                    .containsOnly(name.equals("dv64") ? Bitmap64DeletionVector.MAGIC_NUMBER : BitmapDeletionVector.MAGIC_NUMBER);
        }
    }

    private static List<GenericRow> rows(int from, int to, String value)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString(value)));
        }
        return rows;
    }

    // the magic number of every deletion vector the latest snapshot's index files hold, in the byte order it was written
    private List<Integer> deletionVectorMagics(FileStoreTable table)
            throws IOException
    {
        List<Integer> magics = new ArrayList<>();
        for (IndexManifestEntry entry : table.store().newIndexFileHandler().scan(table.snapshotManager().latestSnapshot(), "DELETION_VECTORS")) {
            IndexFileMeta file = entry.indexFile();
            Path path = Path.of(table.store().pathFactory().indexFileFactory(entry.partition(), entry.bucket()).toPath(file).toUri());
            byte[] bytes = Files.readAllBytes(path);
            for (var range : file.dvRanges().values()) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, range.offset() + 4, 4);
                int bigEndian = buffer.getInt();
                magics.add(bigEndian == BitmapDeletionVector.MAGIC_NUMBER ? bigEndian : Integer.reverseBytes(bigEndian));
            }
        }
        return magics;
    }
}
