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
package io.trino.plugin.paimon.format.manifest;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.spi.TrinoException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Manifest entries decoded from the Avro stream equal the entries written, whatever fields the file's schema has.
 */
final class TestManifestEntryReader
{
    @TempDir
    private Path directory;

    @Test
    void decodesEveryFieldOfTheEntriesWritten()
            throws IOException
    {
        List<ManifestEntry> written = List.of(
                entry(FileKind.ADD, "2026-11-01", 0, "data-a.parquet", OptionalInt.of(0)),
                entry(FileKind.DELETE, "2026-11-01", 1, "data-b.parquet", OptionalInt.of(1)),
                entry(FileKind.ADD, "2026-11-02", 1, "data-c.parquet", OptionalInt.empty()));

        List<ManifestEntry> read = read(ManifestAvro.MANIFEST_SCHEMA, written, ScanFilter.ALL);

        assertThat(read).hasSize(3);
        for (int i = 0; i < written.size(); i++) {
            assertSameEntry(read.get(i), written.get(i));
        }
        // key statistics equal to the key range share its row instead of a copy
        assertThat(read.getFirst().file().keyStats().minValues()).isSameAs(read.getFirst().file().minKey());
        // consecutive entries of one partition share its row
        assertThat(read.get(1).partition()).isSameAs(read.getFirst().partition());
    }

    @Test
    void readsManifestsOfOlderSchemasWithFewerAndUnknownFields()
            throws IOException
    {
        // an older writer: no fields after _EXTRA_FILES; a newer one could add fields we do not know
        Set<String> dropped = Set.of("_CREATION_TIME", "_DELETE_ROW_COUNT", "_EMBEDDED_FILE_INDEX", "_FILE_SOURCE", "_VALUE_STATS_COLS", "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS");
        Schema schema = withFileFields(dropped, new Schema.Field("_FUTURE", Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)), null, Schema.Field.NULL_DEFAULT_VALUE));
        ManifestEntry written = entry(FileKind.ADD, "2026-11-01", 3, "data-old.parquet", OptionalInt.of(0));

        ManifestEntry read = read(schema, List.of(written), ScanFilter.ALL).getFirst();

        DataFileMeta file = read.file();
        assertThat(file.fileName()).isEqualTo("data-old.parquet");
        assertThat(file.level()).isEqualTo(written.file().level());
        assertThat(file.extraFiles()).isEqualTo(written.file().extraFiles());
        assertThat(file.keyStats()).isEqualTo(written.file().keyStats());
        assertThat(file.creationTimeMillis()).isEmpty();
        assertThat(file.deleteRowCount()).isEmpty();
        assertThat(file.embeddedIndex()).isEmpty();
        assertThat(file.fileSource()).isEmpty();
        assertThat(file.valueStatsColumns()).isEmpty();
        assertThat(file.externalPath()).isEmpty();
        assertThat(file.firstRowId()).isEmpty();
        assertThat(file.writeColumns()).isEmpty();
        assertThat(read.partition()).isEqualTo(written.partition());
        assertThat(read.bucket()).isEqualTo(3);
    }

    @Test
    void entriesTheFilterRejectsAreCountedButNotDecoded()
            throws IOException
    {
        List<ManifestEntry> written = List.of(
                entry(FileKind.ADD, "2026-11-01", 0, "data-a.parquet", OptionalInt.of(0)),
                entry(FileKind.ADD, "2026-11-01", 1, "data-b.parquet", OptionalInt.of(0)),
                entry(FileKind.ADD, "2026-11-02", 0, "data-c.parquet", OptionalInt.of(0)),
                entry(FileKind.DELETE, "2026-11-02", 1, "data-d.parquet", OptionalInt.of(0)));
        BinaryRow november2 = partition("2026-11-02");
        ScanFilter filter = new ScanFilter()
        {
            @Override
            public boolean matchesPartition(BinaryRow partition)
            {
                return partition.equals(november2);
            }

            @Override
            public boolean matchesBucket(int bucket, int totalBuckets)
            {
                return bucket == 1;
            }
        };

        Location location = write(ManifestAvro.MANIFEST_SCHEMA, written);
        List<ManifestEntry> read = new ArrayList<>();
        long records = AvroFiles.read(fileSystem(), location, OptionalLong.empty(), new ManifestEntryReader(filter), read::add);

        assertThat(records).isEqualTo(4);
        assertThat(read).hasSize(1);
        assertSameEntry(read.getFirst(), written.get(3));
    }

    @Test
    void missingRequiredFieldNamesTheField()
            throws IOException
    {
        Schema schema = withFileFields(Set.of("_LEVEL"));
        Location location = write(schema, List.of(entry(FileKind.ADD, "2026-11-01", 0, "data-a.parquet", OptionalInt.of(0))));

        assertThatThrownBy(() -> AvroFiles.read(fileSystem(), location, OptionalLong.empty(), new ManifestEntryReader(ScanFilter.ALL), _ -> {}))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_METADATA.toErrorCode()))
                .hasMessage("Invalid Paimon metadata file %s: missing field '_LEVEL'".formatted(location));
    }

    private List<ManifestEntry> read(Schema schema, List<ManifestEntry> entries, ScanFilter filter)
            throws IOException
    {
        Location location = write(schema, entries);
        List<ManifestEntry> read = new ArrayList<>();
        AvroFiles.read(fileSystem(), location, OptionalLong.empty(), new ManifestEntryReader(filter), read::add);
        return read;
    }

    private Location write(Schema schema, List<ManifestEntry> entries)
            throws IOException
    {
        byte[] content = AvroFiles.write(schema, entries, entry -> project(ManifestAvro.encodeManifestEntry(entry), schema));
        Location location = Location.of("local:///manifest-" + entries.size() + "-" + schema.hashCode());
        try (OutputStream output = fileSystem().newOutputFile(location).create()) {
            output.write(content);
        }
        return location;
    }

    private TrinoFileSystem fileSystem()
    {
        return new LocalFileSystem(directory);
    }

    // the full record cut down (or padded with nulls) to the given schema
    private static GenericRecord project(GenericRecord record, Schema schema)
    {
        GenericRecord projected = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
            Schema.Field source = record.getSchema().getField(field.name());
            Object value = source == null ? null : record.get(source.pos());
            projected.put(field.pos(), value instanceof GenericRecord nested && field.schema().getType() == Schema.Type.RECORD ? project(nested, field.schema()) : value);
        }
        return projected;
    }

    // the manifest schema with some _FILE fields dropped and others appended
    private static Schema withFileFields(Set<String> dropped, Schema.Field... added)
    {
        Schema file = ManifestAvro.MANIFEST_SCHEMA.getField("_FILE").schema();
        List<Schema.Field> fileFields = new ArrayList<>();
        for (Schema.Field field : file.getFields()) {
            if (!dropped.contains(field.name())) {
                fileFields.add(new Schema.Field(field, field.schema()));
            }
        }
        fileFields.addAll(List.of(added));
        Schema newFile = Schema.createRecord(file.getName(), null, file.getNamespace(), false, fileFields);
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : ManifestAvro.MANIFEST_SCHEMA.getFields()) {
            fields.add(new Schema.Field(field, field.name().equals("_FILE") ? newFile : field.schema()));
        }
        return Schema.createRecord(ManifestAvro.MANIFEST_SCHEMA.getName(), null, ManifestAvro.MANIFEST_SCHEMA.getNamespace(), false, fields);
    }

    private static void assertSameEntry(ManifestEntry actual, ManifestEntry expected)
    {
        assertThat(actual.kind()).isEqualTo(expected.kind());
        assertThat(actual.partition()).isEqualTo(expected.partition());
        assertThat(actual.bucket()).isEqualTo(expected.bucket());
        assertThat(actual.totalBuckets()).isEqualTo(expected.totalBuckets());
        assertThat(actual.file())
                .usingRecursiveComparison()
                .ignoringFields("embeddedIndex")
                .isEqualTo(expected.file());
        assertThat(actual.file().embeddedIndex().isPresent()).isEqualTo(expected.file().embeddedIndex().isPresent());
        assertThat(actual.file().embeddedIndex().orElse(new byte[0])).isEqualTo(expected.file().embeddedIndex().orElse(new byte[0]));
    }

    private static ManifestEntry entry(FileKind kind, String day, int bucket, String fileName, OptionalInt fileSource)
    {
        BinaryRow minKey = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("BIGINT")), List.of(10L * bucket));
        BinaryRow maxKey = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("BIGINT")), List.of(10L * bucket + 9));
        BinaryRow valueMin = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("STRING"), DataTypeParser.parse("INT")), Arrays.asList("a", null));
        BinaryRow valueMax = BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("STRING"), DataTypeParser.parse("INT")), Arrays.asList("z", null));
        DataFileMeta file = new DataFileMeta(
                fileName, 4096 + bucket, 100, minKey, maxKey,
                new SimpleStats(minKey, maxKey, Optional.of(List.of(0L))),
                new SimpleStats(valueMin, valueMax, Optional.of(Arrays.asList(3L, null))),
                7, 107, 1, bucket + 1, List.of("extra-" + fileName), OptionalLong.of(1_764_000_000_000L), OptionalLong.of(2),
                fileSource.isPresent() ? Optional.of(new byte[] {1, 2, 3}) : Optional.empty(), fileSource, Optional.of(List.of("v", "w")), Optional.of("file:///elsewhere/" + fileName),
                OptionalLong.of(500), Optional.of(List.of("id", "v")));
        return new ManifestEntry(kind, partition(day), bucket, 4, file);
    }

    private static BinaryRow partition(String day)
    {
        return BinaryRowWriter.toBinaryRow(List.of(DataTypeParser.parse("STRING")), List.of(day));
    }
}
