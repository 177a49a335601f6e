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
package io.trino.plugin.paimon.table;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.MergeEngine;
import io.trino.spi.TrinoException;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.DYNAMIC_BUCKET;
import static io.trino.plugin.paimon.table.TableOptions.POSTPONE_BUCKET;
import static io.trino.plugin.paimon.table.TableOptions.integerOption;

/**
 * The checks Paimon 1.4.2 makes of a new schema before it writes {@code schema-0} (its {@code Schema} and
 * {@code TableSchema} constructors and {@code SchemaValidation}), with Paimon's messages: keys exist and are
 * primitive, bucket and bucket-key rules, sequence fields, changelog producer and deletion-vector combinations,
 * nullable primary keys. The merge engine's own option rules are the ones the read path applies
 * ({@link MergeEngineOptionsCheck}), so a table Trino creates is one it can read.
 */
public final class SchemaValidation
{
    // Paimon's system field names that a column may not take; Trino lowercases identifiers, so the upper-case ones
    // (_SEQUENCE_NUMBER, _VALUE_KIND, _LEVEL, _ROW_ID, the _KEY_ prefix) cannot be reached from SQL but are checked
    private static final List<String> SYSTEM_FIELD_NAMES = ImmutableList.of("_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind", "_ROW_ID");
    private static final String KEY_FIELD_PREFIX = "_KEY_";

    private SchemaValidation() {}

    /**
     * @param mergeEngineCheck the merge engine's option checks (the read path's), run for primary-key tables
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} with Paimon's message, prefixed by the table name
     */
    public static TableOptions validate(String tableName, TableSchema schema, MergeEngineOptionsCheck mergeEngineCheck)
    {
        List<String> fieldNames = schema.fieldNames();
        List<String> partitionKeys = schema.partitionKeys();
        List<String> primaryKeys = schema.primaryKeys();

        checkKeys(tableName, fieldNames, partitionKeys, primaryKeys);

        Optional<List<String>> bucketKeyOption = TableOptions.bucketKeyOption(schema.options());
        List<String> bucketKeys = bucketKeyOption.orElse(ImmutableList.of());
        if (!bucketKeys.isEmpty()) {
            check(tableName, fieldNames.containsAll(bucketKeys), "Field names %s should contains all bucket keys %s.", fieldNames, bucketKeys);
            check(tableName, bucketKeys.stream().noneMatch(partitionKeys::contains), "Bucket keys %s should not in partition keys %s.", bucketKeys, partitionKeys);
            check(tableName, primaryKeys.isEmpty() || primaryKeys.containsAll(bucketKeys), "Primary keys %s should contains all bucket keys %s.", primaryKeys, bucketKeys);
        }

        TableOptions options = TableOptions.fromSchema(tableName, schema);

        checkPrimitive(tableName, schema, primaryKeys, "primary key");
        checkPrimitive(tableName, schema, partitionKeys, "partition");

        int bucket = options.bucket();
        if (bucket == DYNAMIC_BUCKET) {
            check(tableName, bucketKeyOption.isEmpty(),
                    "Cannot define 'bucket-key' with bucket = -1, please remove the 'bucket-key' setting or specify a bucket number.");
        }
        else if (bucket < 1 && !(bucket == POSTPONE_BUCKET && !primaryKeys.isEmpty())) {
            throw invalid(tableName, "The number of buckets needs to be greater than 0.");
        }
        else {
            check(tableName, !primaryKeys.isEmpty() || !bucketKeys.isEmpty(), "You should define a 'bucket-key' for bucketed append mode.");
            List<String> nested = schema.fields().stream()
                    .filter(field -> bucketKeys.contains(field.name()) && !isPrimitive(field.type()))
                    .map(DataField::name)
                    .collect(toImmutableList());
            check(tableName, nested.isEmpty(), "nested type can not in bucket-key, in your table these key are %s", nested);
        }

        List<String> sequenceFields = options.sequenceFields();
        for (String field : sequenceFields) {
            check(tableName, fieldNames.contains(field), "Sequence field: '%s' can not be found in table schema.", field);
            check(tableName, options.aggregateFunction(field).isEmpty(), "Should not define aggregation on sequence field: '%s'.", field);
            check(tableName, sequenceFields.indexOf(field) == sequenceFields.lastIndexOf(field), "Sequence field '%s' is defined repeatedly.", field);
        }
        if (!sequenceFields.isEmpty()) {
            check(tableName, options.mergeEngine() != MergeEngine.FIRST_ROW, "Do not support use sequence field on FIRST_ROW merge engine.");
            check(tableName, primaryKeys.isEmpty() || primaryKeys.containsAll(partitionKeys),
                    "You can not use sequence.field in cross partition update case (Primary key constraint '%s' not include all partition fields '%s').", primaryKeys, partitionKeys);
        }

        if (!primaryKeys.isEmpty()) {
            mergeEngineCheck.check(tableName, schema, options);
        }

        check(tableName, !primaryKeys.isEmpty() || options.changelogProducer() == TableOptions.ChangelogProducer.NONE,
                "Can not set changelog-producer on table without primary keys, please define primary keys.");
        for (String field : fieldNames) {
            check(tableName, !SYSTEM_FIELD_NAMES.contains(field), "Field name[%s] in schema cannot be exist in %s", field, SYSTEM_FIELD_NAMES);
            check(tableName, !field.startsWith(KEY_FIELD_PREFIX), "Field name[%s] in schema cannot start with [%s]", field, KEY_FIELD_PREFIX);
        }
        if (options.mergeEngine() == MergeEngine.FIRST_ROW) {
            check(tableName, options.changelogProducer() == TableOptions.ChangelogProducer.NONE || options.changelogProducer() == TableOptions.ChangelogProducer.LOOKUP,
                    "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine");
        }
        if (options.deletionVectorsEnabled()) {
            check(tableName, options.changelogProducer() != TableOptions.ChangelogProducer.FULL_COMPACTION,
                    "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP changelog producer now.");
            check(tableName, options.mergeEngine() != MergeEngine.FIRST_ROW,
                    "First row merge engine does not need deletion vectors because there is no deletion of old data in this merge engine.");
        }
        checkRetention(tableName, schema);
        // nullable keys are a newer Paimon option (seeds: "Nullable Primary Keys"); it needs a key to apply to
        check(tableName, !options.primaryKeyNullable() || !primaryKeys.isEmpty(),
                "Option 'primary-key.nullable' can only be enabled for a table with primary keys.");
        // a table the connector would neither read nor write is not created or altered into one
        UnsupportedOptions.check(tableName, schema.options());
        return options;
    }

    /**
     * The checks of Paimon's {@code Schema} constructor: columns unique, partition and primary keys unique, existing,
     * and the primary key not made of partition columns only. They come first, and a {@link TableSchema} can only be
     * built once they pass.
     */
    /**
     * Options that put a table's files somewhere other than its folder: a table this connector creates or alters
     * keeps every file it has inside its location, so no path from its metadata can point elsewhere (reads of
     * tables Paimon wrote with them check each path against the roots they name).
     *
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the option
     */
    public static void checkLocationOptions(String tableName, Set<String> optionsSet)
    {
        for (String option : List.of("path", "data-file.external-paths", "data-file.path-directory")) {
            if (optionsSet.contains(option)) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' would place files outside the table's location; the connector keeps every file of the tables it creates inside it".formatted(tableName, option));
            }
        }
    }

    public static void checkKeys(String tableName, List<String> fieldNames, List<String> partitionKeys, List<String> primaryKeys)
    {
        check(tableName, duplicates(fieldNames).isEmpty(), "Table column %s must not contain duplicate fields. Found: %s", fieldNames, duplicates(fieldNames));
        check(tableName, duplicates(partitionKeys).isEmpty(), "Partition key constraint %s must not contain duplicate columns. Found: %s", partitionKeys, duplicates(partitionKeys));
        check(tableName, fieldNames.containsAll(partitionKeys), "Table column %s should include all partition fields %s", fieldNames, partitionKeys);
        if (!primaryKeys.isEmpty()) {
            check(tableName, duplicates(primaryKeys).isEmpty(), "Primary key constraint %s must not contain duplicate columns. Found: %s", primaryKeys, duplicates(primaryKeys));
            check(tableName, fieldNames.containsAll(primaryKeys), "Table column %s should include all primary key constraint %s", fieldNames, primaryKeys);
            check(tableName, !partitionKeys.containsAll(primaryKeys),
                    "Primary key constraint %s should not be same with partition fields %s, this will result in only one record in a partition", primaryKeys, partitionKeys);
        }
    }

    /** The merge-engine option checks of a primary-key table, as the read path applies them. */
    @FunctionalInterface
    public interface MergeEngineOptionsCheck
    {
        void check(String tableName, TableSchema schema, TableOptions options);
    }

    private static void checkPrimitive(String tableName, TableSchema schema, List<String> keys, String kind)
    {
        for (String key : keys) {
            DataType type = schema.field(key).orElseThrow().type();
            if (!isPrimitive(type)) {
                throw invalid(tableName, "The type %s in %s field %s is unsupported".formatted(javaTypeName(type), kind, key));
            }
        }
    }

    private static boolean isPrimitive(DataType type)
    {
        return !(type instanceof DataType.ArrayType || type instanceof DataType.MapType || type instanceof DataType.RowType || type instanceof DataType.MultisetType);
    }

    // Paimon names the type by its Java class
    private static String javaTypeName(DataType type)
    {
        return switch (type) {
            case DataType.ArrayType _ -> "ArrayType";
            case DataType.MapType _ -> "MapType";
            case DataType.RowType _ -> "RowType";
            default -> "MultisetType";
        };
    }

    private static Set<String> duplicates(List<String> names)
    {
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new LinkedHashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                duplicates.add(name);
            }
        }
        return duplicates;
    }

    // the snapshot and changelog retention bounds Paimon checks (the changelog's default to the snapshot's)
    private static void checkRetention(String tableName, TableSchema schema)
    {
        int snapshotMin = integerOption(tableName, schema.options(), "snapshot.num-retained.min", 10);
        int snapshotMax = integerOption(tableName, schema.options(), "snapshot.num-retained.max", Integer.MAX_VALUE);
        check(tableName, snapshotMin > 0, "snapshot.num-retained.min should be at least 1");
        check(tableName, snapshotMin <= snapshotMax, "snapshot.num-retained.min should not be larger than snapshot.num-retained.max");
        int changelogMin = integerOption(tableName, schema.options(), "changelog.num-retained.min", snapshotMin);
        int changelogMax = integerOption(tableName, schema.options(), "changelog.num-retained.max", snapshotMax);
        check(tableName, changelogMin > 0, "changelog.num-retained.min should be at least 1");
        check(tableName, changelogMin <= changelogMax, "changelog.num-retained.min should not be larger than changelog.num-retained.max");
    }

    private static void check(String tableName, boolean condition, String message, Object... arguments)
    {
        if (!condition) {
            throw invalid(tableName, message.formatted(arguments));
        }
    }

    private static TrinoException invalid(String tableName, String message)
    {
        return new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: %s".formatted(tableName, message));
    }
}
