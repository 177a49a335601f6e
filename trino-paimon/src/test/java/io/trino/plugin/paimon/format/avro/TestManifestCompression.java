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
package io.trino.plugin.paimon.format.avro;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.generic.GenericRecord;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest compression Paimon 1.4.2 can write (zstd, snappy, deflate, bzip2) reads through our codecs, and
 * postpone-bucket files stay out of a batch scan as they do in Paimon.
 */
final class TestManifestCompression
{
    @Test
    void readsEveryManifestCompressionPaimonWrites()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path root = temp.root();
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            TrinoFileSystem fileSystem = new LocalFileSystem(root);
            for (String compression : List.of("zstd", "snappy", "deflate", "bzip2")) {
                Table table = paimon.createTable("db", "t_" + compression, Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "2")
                        .option("manifest.compression", compression)
                        .build());
                for (int commit = 0; commit < 3; commit++) {
                    List<GenericRow> rows = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        rows.add(GenericRow.of(i * 3 + commit, BinaryString.fromString("v" + commit)));
                    }
                    PaimonJavaCatalog.write(table, rows);
                }
                Location location = Location.of("local:///warehouse/db.db/t_" + compression);
                Snapshot snapshot = new SnapshotFiles(fileSystem, location).latestSnapshot().orElseThrow();
                List<String> ours = new SnapshotScan(fileSystem, location).liveFiles(snapshot, ScanFilter.ALL).stream()
                        .map(entry -> entry.file().fileName())
                        .sorted()
                        .toList();
                List<String> theirs = ((FileStoreTable) paimon.getTable("db", "t_" + compression)).store().newScan().plan().files().stream()
                        .map(entry -> entry.file().fileName())
                        .sorted()
                        .toList();
                assertThat(ours).as(compression).hasSize(6).isEqualTo(theirs);
            }
        }
        assertThat(CodecFactory.fromString("snappy")).isSameAs(SnappyCodec.factory());
    }

    @Test
    void postponeBucketFilesAreNotPartOfABatchScan()
            throws Exception
    {
        try (TempWarehouse temp = TempWarehouse.create()) {
            Path root = temp.root();
            PaimonJavaCatalog paimon = temp.paimon();
            paimon.createDatabase("db");
            Table table = paimon.createTable("db", "t", Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("id")
                    .option("bucket", "-2")
                    .build());
            PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, BinaryString.fromString("a")), GenericRow.of(2, BinaryString.fromString("b"))));
            TrinoFileSystem fileSystem = new LocalFileSystem(root);
            Location location = Location.of("local:///warehouse/db.db/t");
            Snapshot snapshot = new SnapshotFiles(fileSystem, location).latestSnapshot().orElseThrow();
            // the files exist and are in the manifests, in bucket -2
            assertThat(((FileStoreTable) table).store().newScan().plan().files()).isNotEmpty()
                    .allSatisfy(entry -> assertThat(entry.bucket()).isEqualTo(ManifestEntry.POSTPONE_BUCKET));
            // a batch read sees none of them, in Paimon Java as here
            assertThat(PaimonJavaCatalog.readRows(table)).isEmpty();
            assertThat(new SnapshotScan(fileSystem, location).liveFiles(snapshot, ScanFilter.ALL)).isEmpty();
        }
    }

    @Test
    void decodesZstandardWithoutNativeCode()
    {
        // the codec Avro resolves for Paimon's default manifest compression is ours
        AvroFiles.write(SchemaBuilder.record("empty").fields().endRecord(), List.<GenericRecord>of(), record -> record);
        assertThat(CodecFactory.fromString("zstandard")).isSameAs(ZstandardCodec.factory());
    }
}
