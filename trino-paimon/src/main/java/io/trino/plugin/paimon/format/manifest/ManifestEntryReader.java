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
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Decodes manifest entries straight from Avro's binary encoding into {@link ManifestEntry} records, without
 * generic records in between. Fields are taken by name in the order of the file's own schema, so manifests of
 * older Paimon versions (fewer fields) and newer ones (more fields, skipped) read alike. An entry whose partition
 * or bucket the filter rejects is skipped past without decoding its file record and reads as {@code null}.
 */
final class ManifestEntryReader
        implements DatumReader<ManifestEntry>
{
    private static final List<String> ENTRY_FIELDS = List.of("_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_TOTAL_BUCKETS", "_FILE");
    private static final int VERSION = 0;
    private static final int KIND = 1;
    private static final int PARTITION = 2;
    private static final int BUCKET = 3;
    private static final int TOTAL_BUCKETS = 4;
    private static final int FILE = 5;

    private static final List<String> FILE_FIELDS = List.of(
            "_FILE_NAME", "_FILE_SIZE", "_ROW_COUNT", "_MIN_KEY", "_MAX_KEY", "_KEY_STATS", "_VALUE_STATS", "_MIN_SEQUENCE_NUMBER", "_MAX_SEQUENCE_NUMBER",
            "_SCHEMA_ID", "_LEVEL", "_EXTRA_FILES", "_CREATION_TIME", "_DELETE_ROW_COUNT", "_EMBEDDED_FILE_INDEX", "_FILE_SOURCE", "_VALUE_STATS_COLS",
            "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS");
    private static final int FILE_NAME = 0;
    private static final int FILE_SIZE = 1;
    private static final int ROW_COUNT = 2;
    private static final int MIN_KEY = 3;
    private static final int MAX_KEY = 4;
    private static final int KEY_STATS = 5;
    private static final int VALUE_STATS = 6;
    private static final int MIN_SEQUENCE_NUMBER = 7;
    private static final int MAX_SEQUENCE_NUMBER = 8;
    private static final int SCHEMA_ID = 9;
    private static final int LEVEL = 10;
    private static final int EXTRA_FILES = 11;
    private static final int CREATION_TIME = 12;
    private static final int DELETE_ROW_COUNT = 13;
    private static final int EMBEDDED_FILE_INDEX = 14;
    private static final int FILE_SOURCE = 15;
    private static final int VALUE_STATS_COLS = 16;
    private static final int EXTERNAL_PATH = 17;
    private static final int FIRST_ROW_ID = 18;
    private static final int WRITE_COLS = 19;
    // fields every file record must have: name through level
    private static final int REQUIRED_FILE_FIELDS = (1 << (LEVEL + 1)) - 1;

    private static final List<String> STATS_FIELDS = List.of("_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS");
    private static final int MIN_VALUES = 0;
    private static final int MAX_VALUES = 1;
    private static final int NULL_COUNTS = 2;

    private final ScanFilter filter;

    private RecordLayout entryLayout;
    private RecordLayout fileLayout;
    private RecordLayout keyStatsLayout;
    private RecordLayout valueStatsLayout;

    private ByteBuffer scratch = ByteBuffer.allocate(256);
    // the value of the last bytes field read: bytesArray[bytesOffset, bytesOffset + bytesLength)
    private byte[] bytesArray;
    private int bytesOffset;
    private int bytesLength;
    // consecutive entries mostly share a partition: decode and judge it once
    private byte[] lastPartitionBytes = new byte[0];
    private BinaryRow lastPartition;
    private boolean lastPartitionMatches;

    ManifestEntryReader(ScanFilter filter)
    {
        this.filter = requireNonNull(filter, "filter is null");
    }

    @Override
    public void setSchema(Schema writerSchema)
    {
        entryLayout = RecordLayout.of(writerSchema, ENTRY_FIELDS, "manifest entry");
        Schema fileSchema = entryLayout.fieldSchema(FILE);
        if (fileSchema == null) {
            throw new InvalidMetadataException("missing field '_FILE'");
        }
        fileLayout = RecordLayout.of(fileSchema, FILE_FIELDS, "_FILE");
        keyStatsLayout = statsLayout(fileLayout.fieldSchema(KEY_STATS), "_KEY_STATS");
        valueStatsLayout = statsLayout(fileLayout.fieldSchema(VALUE_STATS), "_VALUE_STATS");
    }

    private static RecordLayout statsLayout(Schema schema, String name)
    {
        if (schema == null) {
            throw new InvalidMetadataException("missing field '%s'".formatted(name));
        }
        return RecordLayout.of(schema, STATS_FIELDS, name);
    }

    @Override
    public ManifestEntry read(ManifestEntry reuse, Decoder in)
            throws IOException
    {
        int seen = 0;
        int kind = 0;
        BinaryRow partition = null;
        boolean partitionMatches = true;
        int bucket = 0;
        int totalBuckets = 0;
        DataFileMeta file = null;
        boolean rejected = false;
        for (int field = 0; field < entryLayout.size(); field++) {
            int code = entryLayout.code(field);
            Schema type = rejected || code < 0 ? null : resolve(entryLayout.schema(field), in);
            if (type == null) {
                if (rejected || code < 0) {
                    GenericDatumReader.skip(entryLayout.schema(field), in);
                }
                continue;
            }
            seen |= 1 << code;
            switch (code) {
                case VERSION -> {
                    int version = readInt(type, in);
                    if (version != ManifestEntry.VERSION) {
                        throw new InvalidMetadataException("unsupported record version %s, expected %s".formatted(version, ManifestEntry.VERSION));
                    }
                }
                case KIND -> kind = readInt(type, in);
                case PARTITION -> {
                    readBytes(type, in);
                    if (!Arrays.equals(bytesArray, bytesOffset, bytesOffset + bytesLength, lastPartitionBytes, 0, lastPartitionBytes.length)) {
                        lastPartitionBytes = Arrays.copyOfRange(bytesArray, bytesOffset, bytesOffset + bytesLength);
                        lastPartition = binaryRow(lastPartitionBytes, 0, lastPartitionBytes.length);
                        lastPartitionMatches = filter.matchesPartition(lastPartition);
                    }
                    partition = lastPartition;
                    partitionMatches = lastPartitionMatches;
                }
                case BUCKET -> bucket = readInt(type, in);
                case TOTAL_BUCKETS -> totalBuckets = readInt(type, in);
                case FILE -> {
                    if (hasPartitionAndBucket(seen) && !(partitionMatches && filter.matchesBucket(bucket, totalBuckets))) {
                        rejected = true;
                        GenericDatumReader.skip(type, in);
                    }
                    else {
                        file = readFile(in);
                    }
                }
                default -> throw new IllegalStateException("unexpected field code " + code);
            }
        }
        if (rejected) {
            return null;
        }
        requireFields(seen, (1 << ENTRY_FIELDS.size()) - 1, ENTRY_FIELDS);
        if (!partitionMatches || !filter.matchesBucket(bucket, totalBuckets)) {
            return null;
        }
        return new ManifestEntry(FileKind.fromCode(kind), partition, bucket, totalBuckets, file);
    }

    private static boolean hasPartitionAndBucket(int seen)
    {
        int needed = (1 << PARTITION) | (1 << BUCKET) | (1 << TOTAL_BUCKETS);
        return (seen & needed) == needed;
    }

    private DataFileMeta readFile(Decoder in)
            throws IOException
    {
        int seen = 0;
        String fileName = null;
        long fileSize = 0;
        long rowCount = 0;
        BinaryRow minKey = null;
        BinaryRow maxKey = null;
        SimpleStats keyStats = null;
        SimpleStats valueStats = null;
        long minSequenceNumber = 0;
        long maxSequenceNumber = 0;
        long schemaId = 0;
        int level = 0;
        List<String> extraFiles = List.of();
        OptionalLong creationTime = OptionalLong.empty();
        OptionalLong deleteRowCount = OptionalLong.empty();
        Optional<byte[]> embeddedIndex = Optional.empty();
        OptionalInt fileSource = OptionalInt.empty();
        Optional<List<String>> valueStatsColumns = Optional.empty();
        Optional<String> externalPath = Optional.empty();
        OptionalLong firstRowId = OptionalLong.empty();
        Optional<List<String>> writeColumns = Optional.empty();
        for (int field = 0; field < fileLayout.size(); field++) {
            int code = fileLayout.code(field);
            if (code < 0) {
                GenericDatumReader.skip(fileLayout.schema(field), in);
                continue;
            }
            Schema type = resolve(fileLayout.schema(field), in);
            if (type == null) {
                continue;
            }
            seen |= 1 << code;
            switch (code) {
                case FILE_NAME -> fileName = readString(type, in);
                case FILE_SIZE -> fileSize = readLong(type, in);
                case ROW_COUNT -> rowCount = readLong(type, in);
                case MIN_KEY -> minKey = readBinaryRow(type, in, null);
                case MAX_KEY -> maxKey = readBinaryRow(type, in, null);
                case KEY_STATS -> keyStats = readStats(keyStatsLayout, in, minKey, maxKey);
                case VALUE_STATS -> valueStats = readStats(valueStatsLayout, in, null, null);
                case MIN_SEQUENCE_NUMBER -> minSequenceNumber = readLong(type, in);
                case MAX_SEQUENCE_NUMBER -> maxSequenceNumber = readLong(type, in);
                case SCHEMA_ID -> schemaId = readLong(type, in);
                case LEVEL -> level = readInt(type, in);
                case EXTRA_FILES -> extraFiles = readStrings(type, in);
                case CREATION_TIME -> creationTime = OptionalLong.of(readLong(type, in));
                case DELETE_ROW_COUNT -> deleteRowCount = OptionalLong.of(readLong(type, in));
                case EMBEDDED_FILE_INDEX -> {
                    readBytes(type, in);
                    embeddedIndex = Optional.of(Arrays.copyOfRange(bytesArray, bytesOffset, bytesOffset + bytesLength));
                }
                case FILE_SOURCE -> fileSource = OptionalInt.of(readInt(type, in));
                case VALUE_STATS_COLS -> valueStatsColumns = Optional.of(readStrings(type, in));
                case EXTERNAL_PATH -> externalPath = Optional.of(readString(type, in));
                case FIRST_ROW_ID -> firstRowId = OptionalLong.of(readLong(type, in));
                case WRITE_COLS -> writeColumns = Optional.of(readStrings(type, in));
                default -> throw new IllegalStateException("unexpected field code " + code);
            }
        }
        requireFields(seen, REQUIRED_FILE_FIELDS, FILE_FIELDS);
        return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber, maxSequenceNumber, schemaId, level,
                extraFiles, creationTime, deleteRowCount, embeddedIndex, fileSource, valueStatsColumns, externalPath, firstRowId, writeColumns);
    }

    // key stats usually repeat the key range byte for byte: such rows share the key's BinaryRow
    private SimpleStats readStats(RecordLayout layout, Decoder in, BinaryRow sameMin, BinaryRow sameMax)
            throws IOException
    {
        int seen = 0;
        BinaryRow min = null;
        BinaryRow max = null;
        Optional<List<Long>> nullCounts = Optional.empty();
        for (int field = 0; field < layout.size(); field++) {
            int code = layout.code(field);
            if (code < 0) {
                GenericDatumReader.skip(layout.schema(field), in);
                continue;
            }
            Schema type = resolve(layout.schema(field), in);
            if (type == null) {
                continue;
            }
            seen |= 1 << code;
            switch (code) {
                case MIN_VALUES -> min = readBinaryRow(type, in, sameMin);
                case MAX_VALUES -> max = readBinaryRow(type, in, sameMax);
                case NULL_COUNTS -> nullCounts = Optional.of(readNullCounts(type, in));
                default -> throw new IllegalStateException("unexpected field code " + code);
            }
        }
        requireFields(seen, (1 << MIN_VALUES) | (1 << MAX_VALUES), STATS_FIELDS);
        return new SimpleStats(min, max, nullCounts);
    }

    private BinaryRow readBinaryRow(Schema type, Decoder in, BinaryRow same)
            throws IOException
    {
        readBytes(type, in);
        if (same != null && isSerializationOf(same, bytesArray, bytesOffset, bytesLength)) {
            return same;
        }
        return binaryRow(bytesArray, bytesOffset, bytesLength);
    }

    private static boolean isSerializationOf(BinaryRow row, byte[] bytes, int offset, int length)
    {
        byte[] rowBytes = row.bytes();
        return length == rowBytes.length + 4
                && (((bytes[offset] & 0xFF) << 24) | ((bytes[offset + 1] & 0xFF) << 16) | ((bytes[offset + 2] & 0xFF) << 8) | (bytes[offset + 3] & 0xFF)) == row.arity()
                && Arrays.equals(bytes, offset + 4, offset + length, rowBytes, 0, rowBytes.length);
    }

    private void readBytes(Schema type, Decoder in)
            throws IOException
    {
        if (type.getType() != Schema.Type.BYTES) {
            throw new InvalidMetadataException("expected bytes, the file has " + type);
        }
        scratch.clear();
        scratch = in.readBytes(scratch);
        bytesArray = scratch.array();
        bytesOffset = scratch.arrayOffset() + scratch.position();
        bytesLength = scratch.remaining();
    }

    private static BinaryRow binaryRow(byte[] serialized, int offset, int length)
    {
        try {
            return BinaryRow.deserialize(serialized, offset, length);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidMetadataException("invalid binary row: " + e.getMessage(), e);
        }
    }

    private static List<String> readStrings(Schema type, Decoder in)
            throws IOException
    {
        if (type.getType() != Schema.Type.ARRAY) {
            throw new InvalidMetadataException("expected an array, the file has " + type);
        }
        long count = in.readArrayStart();
        if (count == 0) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (; count != 0; count = in.arrayNext()) {
            for (long i = 0; i < count; i++) {
                Schema element = resolve(type.getElementType(), in);
                if (element == null) {
                    throw new InvalidMetadataException("null string in an array of strings");
                }
                values.add(readString(element, in));
            }
        }
        return values;
    }

    private static List<Long> readNullCounts(Schema type, Decoder in)
            throws IOException
    {
        if (type.getType() != Schema.Type.ARRAY) {
            throw new InvalidMetadataException("expected an array, the file has " + type);
        }
        List<Long> values = new ArrayList<>();
        for (long count = in.readArrayStart(); count != 0; count = in.arrayNext()) {
            for (long i = 0; i < count; i++) {
                Schema element = resolve(type.getElementType(), in);
                values.add(element == null ? null : readLong(element, in));
            }
        }
        return values;
    }

    // the schema the value is written with: the union branch it takes, or null (after reading it) for a null value
    private static Schema resolve(Schema schema, Decoder in)
            throws IOException
    {
        Schema type = schema;
        if (type.getType() == Schema.Type.UNION) {
            int branch = in.readIndex();
            if (branch < 0 || branch >= type.getTypes().size()) {
                throw new InvalidMetadataException("union branch %s out of range".formatted(branch));
            }
            type = type.getTypes().get(branch);
        }
        if (type.getType() == Schema.Type.NULL) {
            in.readNull();
            return null;
        }
        return type;
    }

    private static String readString(Schema type, Decoder in)
            throws IOException
    {
        if (type.getType() != Schema.Type.STRING) {
            throw new InvalidMetadataException("expected a string, the file has " + type);
        }
        return in.readString();
    }

    private static int readInt(Schema type, Decoder in)
            throws IOException
    {
        if (type.getType() != Schema.Type.INT) {
            throw new InvalidMetadataException("expected an int, the file has " + type);
        }
        return in.readInt();
    }

    private static long readLong(Schema type, Decoder in)
            throws IOException
    {
        return switch (type.getType()) {
            case INT -> in.readInt();
            case LONG -> in.readLong();
            default -> throw new InvalidMetadataException("expected a long, the file has " + type);
        };
    }

    private static void requireFields(int seen, int required, List<String> names)
    {
        int missing = required & ~seen;
        if (missing != 0) {
            throw new InvalidMetadataException("missing field '%s'".formatted(names.get(Integer.numberOfTrailingZeros(missing))));
        }
    }

    /** The fields of a record as the file lays them out, each with the code of the field we know by that name (-1: skipped). */
    private record RecordLayout(Schema[] schemas, int[] codes)
    {
        static RecordLayout of(Schema record, List<String> known, String description)
        {
            if (record.getType() == Schema.Type.UNION) {
                // a nullable record: its record branch (a null value is refused as a missing field when read)
                record = record.getTypes().stream().filter(type -> type.getType() != Schema.Type.NULL).findFirst().orElse(record);
            }
            if (record.getType() != Schema.Type.RECORD) {
                throw new InvalidMetadataException("%s is not a record: %s".formatted(description, record));
            }
            List<Schema.Field> fields = record.getFields();
            Schema[] schemas = new Schema[fields.size()];
            int[] codes = new int[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                schemas[i] = fields.get(i).schema();
                codes[i] = known.indexOf(fields.get(i).name());
            }
            return new RecordLayout(schemas, codes);
        }

        int size()
        {
            return codes.length;
        }

        int code(int field)
        {
            return codes[field];
        }

        Schema schema(int field)
        {
            return schemas[field];
        }

        /** The schema of the field we know by this code, or null when the file's record lacks it. */
        Schema fieldSchema(int code)
        {
            for (int i = 0; i < codes.length; i++) {
                if (codes[i] == code) {
                    return schemas[i];
                }
            }
            return null;
        }
    }
}
