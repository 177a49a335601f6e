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

import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.manifest.IndexManifestEntry.DeletionVectorRange;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The Avro records of manifest lists, manifests and index manifests (paimon-format.md §4). Decoding goes by field
 * name and tolerates fields that older files lack (manifest entries are decoded by {@link ManifestEntryReader}); encoding writes the schemas Paimon 1.4.2 writes, field for
 * field, so Paimon 1.3 and 1.4 read our files as their own.
 */
public final class ManifestAvro
{
    private static final String STATS_FIELDS = """
            [ {"name": "_MIN_VALUES", "type": "bytes"},
              {"name": "_MAX_VALUES", "type": "bytes"},
              {"name": "_NULL_COUNTS", "type": ["null", {"type": "array", "items": ["null", "long"]}], "default": null} ]""";

    public static final Schema MANIFEST_LIST_SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "record", "namespace": "org.apache.paimon.avro.generated", "fields": [
              {"name": "_VERSION", "type": "int"},
              {"name": "_FILE_NAME", "type": "string"},
              {"name": "_FILE_SIZE", "type": "long"},
              {"name": "_NUM_ADDED_FILES", "type": "long"},
              {"name": "_NUM_DELETED_FILES", "type": "long"},
              {"name": "_PARTITION_STATS", "type": {"type": "record", "name": "record__PARTITION_STATS", "fields": %s}},
              {"name": "_SCHEMA_ID", "type": "long"},
              {"name": "_MIN_BUCKET", "type": ["null", "int"], "default": null},
              {"name": "_MAX_BUCKET", "type": ["null", "int"], "default": null},
              {"name": "_MIN_LEVEL", "type": ["null", "int"], "default": null},
              {"name": "_MAX_LEVEL", "type": ["null", "int"], "default": null},
              {"name": "_MIN_ROW_ID", "type": ["null", "long"], "default": null},
              {"name": "_MAX_ROW_ID", "type": ["null", "long"], "default": null} ]}
            """.formatted(STATS_FIELDS));

    public static final Schema MANIFEST_SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "record", "namespace": "org.apache.paimon.avro.generated", "fields": [
              {"name": "_VERSION", "type": "int"},
              {"name": "_KIND", "type": "int"},
              {"name": "_PARTITION", "type": "bytes"},
              {"name": "_BUCKET", "type": "int"},
              {"name": "_TOTAL_BUCKETS", "type": "int"},
              {"name": "_FILE", "type": {"type": "record", "name": "record__FILE", "fields": [
                {"name": "_FILE_NAME", "type": "string"},
                {"name": "_FILE_SIZE", "type": "long"},
                {"name": "_ROW_COUNT", "type": "long"},
                {"name": "_MIN_KEY", "type": "bytes"},
                {"name": "_MAX_KEY", "type": "bytes"},
                {"name": "_KEY_STATS", "type": {"type": "record", "name": "record__FILE__KEY_STATS", "fields": %s}},
                {"name": "_VALUE_STATS", "type": {"type": "record", "name": "record__FILE__VALUE_STATS", "fields": %s}},
                {"name": "_MIN_SEQUENCE_NUMBER", "type": "long"},
                {"name": "_MAX_SEQUENCE_NUMBER", "type": "long"},
                {"name": "_SCHEMA_ID", "type": "long"},
                {"name": "_LEVEL", "type": "int"},
                {"name": "_EXTRA_FILES", "type": {"type": "array", "items": "string"}},
                {"name": "_CREATION_TIME", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": null},
                {"name": "_DELETE_ROW_COUNT", "type": ["null", "long"], "default": null},
                {"name": "_EMBEDDED_FILE_INDEX", "type": ["null", "bytes"], "default": null},
                {"name": "_FILE_SOURCE", "type": ["null", "int"], "default": null},
                {"name": "_VALUE_STATS_COLS", "type": ["null", {"type": "array", "items": "string"}], "default": null},
                {"name": "_EXTERNAL_PATH", "type": ["null", "string"], "default": null},
                {"name": "_FIRST_ROW_ID", "type": ["null", "long"], "default": null},
                {"name": "_WRITE_COLS", "type": ["null", {"type": "array", "items": "string"}], "default": null} ]}} ]}
            """.formatted(STATS_FIELDS, STATS_FIELDS));

    public static final Schema INDEX_MANIFEST_SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "record", "namespace": "org.apache.paimon.avro.generated", "fields": [
              {"name": "_VERSION", "type": "int"},
              {"name": "_KIND", "type": "int"},
              {"name": "_PARTITION", "type": "bytes"},
              {"name": "_BUCKET", "type": "int"},
              {"name": "_INDEX_TYPE", "type": "string"},
              {"name": "_FILE_NAME", "type": "string"},
              {"name": "_FILE_SIZE", "type": "long"},
              {"name": "_ROW_COUNT", "type": "long"},
              {"name": "_DELETIONS_VECTORS_RANGES", "type": ["null", {"type": "array", "items": ["null", {"type": "record", "name": "record__DELETIONS_VECTORS_RANGES", "fields": [
                {"name": "f0", "type": "string"},
                {"name": "f1", "type": "int"},
                {"name": "f2", "type": "int"},
                {"name": "_CARDINALITY", "type": ["null", "long"], "default": null} ]}]}], "default": null},
              {"name": "_EXTERNAL_PATH", "type": ["null", "string"], "default": null},
              {"name": "_GLOBAL_INDEX", "type": ["null", {"type": "record", "name": "record__GLOBAL_INDEX", "fields": [
                {"name": "_ROW_RANGE_START", "type": "long"},
                {"name": "_ROW_RANGE_END", "type": "long"},
                {"name": "_INDEX_FIELD_ID", "type": "int"},
                {"name": "_EXTRA_FIELD_IDS", "type": ["null", {"type": "array", "items": "int"}], "default": null},
                {"name": "_INDEX_META", "type": ["null", "bytes"], "default": null} ]}], "default": null} ]}
            """);

    private ManifestAvro() {}

    public static ManifestFileMeta decodeManifestFileMeta(GenericRecord record)
    {
        checkVersion(record, ManifestFileMeta.VERSION);
        return new ManifestFileMeta(
                requiredString(record, "_FILE_NAME"),
                requiredLong(record, "_FILE_SIZE"),
                requiredLong(record, "_NUM_ADDED_FILES"),
                requiredLong(record, "_NUM_DELETED_FILES"),
                decodeStats(requiredRecord(record, "_PARTITION_STATS")),
                requiredLong(record, "_SCHEMA_ID"),
                optionalInt(record, "_MIN_BUCKET"),
                optionalInt(record, "_MAX_BUCKET"),
                optionalInt(record, "_MIN_LEVEL"),
                optionalInt(record, "_MAX_LEVEL"),
                optionalLong(record, "_MIN_ROW_ID"),
                optionalLong(record, "_MAX_ROW_ID"));
    }

    public static GenericRecord encodeManifestFileMeta(ManifestFileMeta meta)
    {
        GenericRecord record = new GenericData.Record(MANIFEST_LIST_SCHEMA);
        record.put("_VERSION", ManifestFileMeta.VERSION);
        record.put("_FILE_NAME", meta.fileName());
        record.put("_FILE_SIZE", meta.fileSize());
        record.put("_NUM_ADDED_FILES", meta.numAddedFiles());
        record.put("_NUM_DELETED_FILES", meta.numDeletedFiles());
        record.put("_PARTITION_STATS", encodeStats(MANIFEST_LIST_SCHEMA.getField("_PARTITION_STATS").schema(), meta.partitionStats()));
        record.put("_SCHEMA_ID", meta.schemaId());
        record.put("_MIN_BUCKET", boxed(meta.minBucket()));
        record.put("_MAX_BUCKET", boxed(meta.maxBucket()));
        record.put("_MIN_LEVEL", boxed(meta.minLevel()));
        record.put("_MAX_LEVEL", boxed(meta.maxLevel()));
        record.put("_MIN_ROW_ID", boxed(meta.minRowId()));
        record.put("_MAX_ROW_ID", boxed(meta.maxRowId()));
        return record;
    }

    public static GenericRecord encodeManifestEntry(ManifestEntry entry)
    {
        Schema fileSchema = MANIFEST_SCHEMA.getField("_FILE").schema();
        DataFileMeta meta = entry.file();
        GenericRecord file = new GenericData.Record(fileSchema);
        file.put("_FILE_NAME", meta.fileName());
        file.put("_FILE_SIZE", meta.fileSize());
        file.put("_ROW_COUNT", meta.rowCount());
        file.put("_MIN_KEY", ByteBuffer.wrap(meta.minKey().serialize()));
        file.put("_MAX_KEY", ByteBuffer.wrap(meta.maxKey().serialize()));
        file.put("_KEY_STATS", encodeStats(fileSchema.getField("_KEY_STATS").schema(), meta.keyStats()));
        file.put("_VALUE_STATS", encodeStats(fileSchema.getField("_VALUE_STATS").schema(), meta.valueStats()));
        file.put("_MIN_SEQUENCE_NUMBER", meta.minSequenceNumber());
        file.put("_MAX_SEQUENCE_NUMBER", meta.maxSequenceNumber());
        file.put("_SCHEMA_ID", meta.schemaId());
        file.put("_LEVEL", meta.level());
        file.put("_EXTRA_FILES", new ArrayList<>(meta.extraFiles()));
        file.put("_CREATION_TIME", boxed(meta.creationTimeMillis()));
        file.put("_DELETE_ROW_COUNT", boxed(meta.deleteRowCount()));
        file.put("_EMBEDDED_FILE_INDEX", meta.embeddedIndex().map(ByteBuffer::wrap).orElse(null));
        file.put("_FILE_SOURCE", boxed(meta.fileSource()));
        file.put("_VALUE_STATS_COLS", meta.valueStatsColumns().map(ArrayList::new).orElse(null));
        file.put("_EXTERNAL_PATH", meta.externalPath().orElse(null));
        file.put("_FIRST_ROW_ID", boxed(meta.firstRowId()));
        file.put("_WRITE_COLS", meta.writeColumns().map(ArrayList::new).orElse(null));

        GenericRecord record = new GenericData.Record(MANIFEST_SCHEMA);
        record.put("_VERSION", ManifestEntry.VERSION);
        record.put("_KIND", entry.kind().code());
        record.put("_PARTITION", ByteBuffer.wrap(entry.partition().serialize()));
        record.put("_BUCKET", entry.bucket());
        record.put("_TOTAL_BUCKETS", entry.totalBuckets());
        record.put("_FILE", file);
        return record;
    }

    public static IndexManifestEntry decodeIndexManifestEntry(GenericRecord record)
    {
        checkVersion(record, IndexManifestEntry.VERSION);
        Optional<List<DeletionVectorRange>> ranges = Optional.ofNullable((Collection<?>) field(record, "_DELETIONS_VECTORS_RANGES"))
                .map(items -> items.stream()
                        .map(item -> {
                            GenericRecord range = (GenericRecord) item;
                            if (range == null) {
                                throw new InvalidMetadataException("null deletion vector range");
                            }
                            return new DeletionVectorRange(
                                    requiredString(range, "f0"),
                                    requiredInt(range, "f1"),
                                    requiredInt(range, "f2"),
                                    optionalLong(range, "_CARDINALITY"));
                        })
                        .toList());
        return new IndexManifestEntry(
                FileKind.fromCode(requiredInt(record, "_KIND")),
                binaryRow(requiredBytes(record, "_PARTITION")),
                requiredInt(record, "_BUCKET"),
                requiredString(record, "_INDEX_TYPE"),
                requiredString(record, "_FILE_NAME"),
                requiredLong(record, "_FILE_SIZE"),
                requiredLong(record, "_ROW_COUNT"),
                ranges,
                optionalString(record, "_EXTERNAL_PATH"));
    }

    public static GenericRecord encodeIndexManifestEntry(IndexManifestEntry entry)
    {
        Schema rangesSchema = INDEX_MANIFEST_SCHEMA.getField("_DELETIONS_VECTORS_RANGES").schema().getTypes().get(1).getElementType().getTypes().get(1);
        GenericRecord record = new GenericData.Record(INDEX_MANIFEST_SCHEMA);
        record.put("_VERSION", IndexManifestEntry.VERSION);
        record.put("_KIND", entry.kind().code());
        record.put("_PARTITION", ByteBuffer.wrap(entry.partition().serialize()));
        record.put("_BUCKET", entry.bucket());
        record.put("_INDEX_TYPE", entry.indexType());
        record.put("_FILE_NAME", entry.fileName());
        record.put("_FILE_SIZE", entry.fileSize());
        record.put("_ROW_COUNT", entry.rowCount());
        record.put("_DELETIONS_VECTORS_RANGES", entry.deletionVectorRanges()
                .map(ranges -> ranges.stream()
                        .map(range -> {
                            GenericRecord rangeRecord = new GenericData.Record(rangesSchema);
                            rangeRecord.put("f0", range.dataFileName());
                            rangeRecord.put("f1", range.offset());
                            rangeRecord.put("f2", range.length());
                            rangeRecord.put("_CARDINALITY", boxed(range.cardinality()));
                            return (Object) rangeRecord;
                        })
                        .toList())
                .orElse(null));
        record.put("_EXTERNAL_PATH", entry.externalPath().orElse(null));
        record.put("_GLOBAL_INDEX", null);
        return record;
    }

    private static SimpleStats decodeStats(GenericRecord record)
    {
        Collection<?> nullCounts = (Collection<?>) field(record, "_NULL_COUNTS");
        return new SimpleStats(
                binaryRow(requiredBytes(record, "_MIN_VALUES")),
                binaryRow(requiredBytes(record, "_MAX_VALUES")),
                Optional.ofNullable(nullCounts).map(counts -> counts.stream().map(count -> (Long) count).toList()));
    }

    private static GenericRecord encodeStats(Schema schema, SimpleStats stats)
    {
        GenericRecord record = new GenericData.Record(schema);
        record.put("_MIN_VALUES", ByteBuffer.wrap(stats.minValues().serialize()));
        record.put("_MAX_VALUES", ByteBuffer.wrap(stats.maxValues().serialize()));
        record.put("_NULL_COUNTS", stats.nullCounts().map(ArrayList::new).orElse(null));
        return record;
    }

    private static void checkVersion(GenericRecord record, int expected)
    {
        int version = requiredInt(record, "_VERSION");
        if (version != expected) {
            throw new InvalidMetadataException("unsupported record version %s, expected %s".formatted(version, expected));
        }
    }

    private static BinaryRow binaryRow(byte[] serialized)
    {
        try {
            return BinaryRow.deserialize(serialized);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidMetadataException("invalid binary row: " + e.getMessage(), e);
        }
    }

    // the value of a field, or null when the file's schema has no such field (older Paimon versions)
    private static Object field(GenericRecord record, String name)
    {
        Schema.Field field = record.getSchema().getField(name);
        return field == null ? null : record.get(field.pos());
    }

    private static Object required(GenericRecord record, String name)
    {
        Object value = field(record, name);
        if (value == null) {
            throw new InvalidMetadataException("missing field '%s'".formatted(name));
        }
        return value;
    }

    private static String requiredString(GenericRecord record, String name)
    {
        return required(record, name).toString();
    }

    private static long requiredLong(GenericRecord record, String name)
    {
        return ((Number) required(record, name)).longValue();
    }

    private static int requiredInt(GenericRecord record, String name)
    {
        return ((Number) required(record, name)).intValue();
    }

    private static byte[] requiredBytes(GenericRecord record, String name)
    {
        return bytes((ByteBuffer) required(record, name));
    }

    private static GenericRecord requiredRecord(GenericRecord record, String name)
    {
        return (GenericRecord) required(record, name);
    }

    private static OptionalLong optionalLong(GenericRecord record, String name)
    {
        Object value = field(record, name);
        return value == null ? OptionalLong.empty() : OptionalLong.of(((Number) value).longValue());
    }

    private static OptionalInt optionalInt(GenericRecord record, String name)
    {
        Object value = field(record, name);
        return value == null ? OptionalInt.empty() : OptionalInt.of(((Number) value).intValue());
    }

    private static Optional<String> optionalString(GenericRecord record, String name)
    {
        return Optional.ofNullable(field(record, name)).map(Object::toString);
    }

    private static byte[] bytes(ByteBuffer buffer)
    {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static Integer boxed(OptionalInt value)
    {
        return value.isPresent() ? value.getAsInt() : null;
    }

    private static Long boxed(OptionalLong value)
    {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
