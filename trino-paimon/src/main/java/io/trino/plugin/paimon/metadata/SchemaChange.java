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
package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.SchemaValidation;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_PROPERTY;
import static io.trino.plugin.paimon.table.TableOptions.DYNAMIC_BUCKET;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.plugin.paimon.table.TableOptions.parseBoolean;
import static io.trino.plugin.paimon.table.TableOptions.parseInteger;
import static io.trino.spi.StandardErrorCode.COLUMN_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * One ALTER TABLE change, applied to a schema as Paimon 1.4.2's {@code SchemaManager} applies its schema change:
 * to whichever schema is latest when the change commits, so that a change that lost the race for the next schema id
 * is applied again to the winner's schema. Each check Paimon makes runs against that schema, with Paimon's message.
 * The result keeps the id of its input; {@link SchemaEvolution} numbers and validates it.
 */
public sealed interface SchemaChange
{
    /**
     * @param hasSnapshots whether the table has data; Paimon lets options of an empty table change freely
     */
    TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots);

    /**
     * Appends a nullable column with the next field id (nested ROW fields numbered after it), as Paimon's
     * {@code SchemaManager} adds one: placed last, or before the first partition column when the table sets
     * {@code add-column-before-partition}. Files written before read it as null, matched by field id.
     */
    record AddColumn(String name, Type type, Optional<String> comment)
            implements SchemaChange
    {
        public AddColumn
        {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(comment, "comment is null");
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            if (schema.field(name).isPresent()) {
                throw new TrinoException(COLUMN_ALREADY_EXISTS, "Column %s already exists in the %s table.".formatted(name, tableName));
            }
            AtomicInteger highestFieldId = new AtomicInteger(schema.highestFieldId());
            int id = highestFieldId.incrementAndGet();
            DataType paimonType;
            try {
                paimonType = TypeMapping.toPaimonType(type, true, highestFieldId);
            }
            catch (TrinoException e) {
                throw new TrinoException(e::getErrorCode, "Table %s column '%s': %s".formatted(tableName, name, e.getMessage()), e);
            }
            List<DataField> fields = new ArrayList<>(schema.fields());
            int index = fields.size();
            boolean beforePartition = booleanOption(tableName.toString(), schema.options(), "add-column-before-partition", false);
            if (beforePartition) {
                for (int i = 0; i < fields.size(); i++) {
                    if (schema.partitionKeys().contains(fields.get(i).name())) {
                        index = i;
                        break;
                    }
                }
            }
            fields.add(index, new DataField(id, name, paimonType, comment, Optional.empty()));
            TableSchema changed = withFields(schema, fields, schema.primaryKeys(), schema.options());
            return new TableSchema(changed.version(), changed.id(), changed.fields(), highestFieldId.get(), changed.partitionKeys(), changed.primaryKeys(), changed.options(), changed.comment(), changed.timeMillis());
        }
    }

    /** Sets or removes the table's comment. */
    record UpdateComment(Optional<String> comment)
            implements SchemaChange
    {
        public UpdateComment
        {
            requireNonNull(comment, "comment is null");
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            return new TableSchema(schema.version(), schema.id(), schema.fields(), schema.highestFieldId(), schema.partitionKeys(), schema.primaryKeys(), schema.options(), comment, schema.timeMillis());
        }
    }

    /** Sets or removes a column's comment (its description). */
    record UpdateColumnComment(String name, Optional<String> comment)
            implements SchemaChange
    {
        public UpdateColumnComment
        {
            requireNonNull(name, "name is null");
            requireNonNull(comment, "comment is null");
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            checkExists(tableName, schema, name);
            List<DataField> fields = schema.fields().stream()
                    .map(field -> field.name().equals(name) ? new DataField(field.id(), field.name(), field.type(), comment, field.defaultValue()) : field)
                    .collect(toImmutableList());
            return withFields(schema, fields, schema.primaryKeys(), schema.options());
        }
    }

    /** Removes a top-level column; its field id is never given out again. Key columns stay, as in Paimon. */
    record DropColumn(String name)
            implements SchemaChange
    {
        public DropColumn
        {
            requireNonNull(name, "name is null");
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            checkExists(tableName, schema, name);
            if (schema.partitionKeys().contains(name) || schema.primaryKeys().contains(name)) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: Cannot drop partition key or primary key: [%s]".formatted(tableName, name));
            }
            List<DataField> fields = schema.fields().stream()
                    .filter(field -> !field.name().equals(name))
                    .collect(toImmutableList());
            if (fields.isEmpty()) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: Cannot drop all fields in table".formatted(tableName));
            }
            return withFields(schema, fields, schema.primaryKeys(), schema.options());
        }
    }

    /**
     * Renames a top-level column, keeping its field id, so files written before read it under the new name. As in
     * Paimon, a partition column cannot be renamed; a primary-key column can, and the primary key, the bucket key,
     * the sequence fields and the per-field options follow the new name.
     */
    record RenameColumn(String name, String newName)
            implements SchemaChange
    {
        private static final List<String> FIELD_OPTION_SUFFIXES = ImmutableList.of("aggregate-function", "ignore-retract", "distinct", "list-agg-delimiter");
        private static final List<String> FIELD_LIST_OPTION_SUFFIXES = ImmutableList.of("sequence-group", "nested-key");

        public RenameColumn
        {
            requireNonNull(name, "name is null");
            requireNonNull(newName, "newName is null");
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            if (schema.partitionKeys().contains(name)) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: Cannot rename partition column: [%s]".formatted(tableName, name));
            }
            checkExists(tableName, schema, name);
            if (schema.field(newName).isPresent()) {
                throw new TrinoException(COLUMN_ALREADY_EXISTS, "Column %s already exists in the %s table.".formatted(newName, tableName));
            }
            List<DataField> fields = schema.fields().stream()
                    .map(field -> field.name().equals(name) ? new DataField(field.id(), newName, field.type(), field.description(), field.defaultValue()) : field)
                    .collect(toImmutableList());
            return withFields(schema, fields, renamed(schema.primaryKeys()), renamedOptions(schema.options()));
        }

        private List<String> renamed(List<String> names)
        {
            return names.stream()
                    .map(column -> column.equals(name) ? newName : column)
                    .collect(toImmutableList());
        }

        // the options that name columns, in their key or their value, as Paimon rewrites them on a rename
        private Map<String, String> renamedOptions(Map<String, String> options)
        {
            Map<String, String> renamed = new LinkedHashMap<>();
            options.forEach((key, value) -> {
                if (key.equals("bucket-key") || key.equals("sequence.field")) {
                    renamed.put(key, renamedList(value));
                    return;
                }
                for (String suffix : FIELD_OPTION_SUFFIXES) {
                    if (key.equals("fields." + name + "." + suffix)) {
                        renamed.put("fields." + newName + "." + suffix, value);
                        return;
                    }
                }
                for (String suffix : FIELD_LIST_OPTION_SUFFIXES) {
                    if (key.startsWith("fields.") && key.endsWith("." + suffix) && key.length() > "fields.".length() + suffix.length() + 1) {
                        String fields = key.substring("fields.".length(), key.length() - suffix.length() - 1);
                        renamed.put("fields." + renamedList(fields) + "." + suffix, renamedList(value));
                        return;
                    }
                }
                renamed.put(key, value);
            });
            return renamed;
        }

        private String renamedList(String value)
        {
            return String.join(",", renamed(Arrays.asList(value.split(",", -1))));
        }
    }

    /**
     * Changes a column's type to one that holds every value of the old type, which the reader converts old files
     * to (see {@link TypeWidening}). Key columns keep their types, as in Paimon: their bytes decide buckets and order.
     */
    record UpdateColumnType(String name, DataType newType)
            implements SchemaChange
    {
        public UpdateColumnType
        {
            requireNonNull(name, "name is null");
            requireNonNull(newType, "newType is null");
        }

        /** The change to a Trino type; nested types are refused (their fields would need their own field ids). */
        public static UpdateColumnType of(SchemaTableName tableName, String name, Type type)
        {
            if (type instanceof RowType || type instanceof ArrayType || type instanceof MapType) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: cannot change column '%s' to %s; the Paimon connector changes only the types of columns of a primitive type".formatted(tableName, name, type));
            }
            try {
                return new UpdateColumnType(name, TypeMapping.toPaimonType(type, true, new AtomicInteger()));
            }
            catch (TrinoException e) {
                throw new TrinoException(e::getErrorCode, "Table %s column '%s': %s".formatted(tableName, name, e.getMessage()), e);
            }
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            if (schema.partitionKeys().contains(name)) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: Cannot update partition column: [%s]".formatted(tableName, name));
            }
            if (schema.primaryKeys().contains(name)) {
                throw new TrinoException(NOT_SUPPORTED, "Table %s: Cannot update primary key".formatted(tableName));
            }
            DataField current = checkExists(tableName, schema, name);
            // the nullability stays, as Paimon keeps it for a type change from SQL
            DataType target = newType.withNullable(current.type().nullable());
            TypeWidening.check(tableName, name, current.type(), target);
            List<DataField> fields = schema.fields().stream()
                    .map(field -> field.name().equals(name) ? new DataField(field.id(), field.name(), target, field.description(), field.defaultValue()) : field)
                    .collect(toImmutableList());
            return withFields(schema, fields, schema.primaryKeys(), schema.options());
        }
    }

    /**
     * Sets options (a value) and resets them (empty). Once the table has data, Paimon refuses to change the options
     * that decide where rows are and how they merge; its messages are kept. Changing {@code bucket} of a table with
     * data, which Paimon allows before a rescale that rewrites every partition, is refused: the connector cannot
     * rescale, and rows written with the new bucket count would sit beside keys in their old buckets.
     */
    record SetOptions(Map<String, Optional<String>> changes)
            implements SchemaChange
    {
        // Paimon 1.4.2's CoreOptions fields marked @Immutable
        private static final Set<String> IMMUTABLE_OPTIONS = Set.of(
                "bucket-key",
                "bucket-function.type",
                "data-file.path-directory",
                "merge-engine",
                "aggregation.remove-record-on-delete",
                "partial-update.remove-record-on-delete",
                "partial-update.remove-record-on-sequence-group",
                "rowkind.field",
                "primary-key",
                "partition",
                "force-lookup",
                "row-tracking.enabled",
                "data-evolution.enabled",
                "index-file-in-data-file-dir",
                "blob-descriptor-field",
                "blob-external-storage-path",
                "blob-external-storage-field",
                "pk-clustering-override");

        public SetOptions
        {
            changes = ImmutableMap.copyOf(changes);
        }

        @Override
        public TableSchema apply(SchemaTableName tableName, TableSchema schema, boolean hasSnapshots)
        {
            Map<String, String> options = new LinkedHashMap<>(schema.options());
            Set<String> set = changes.entrySet().stream().filter(change -> change.getValue().isPresent()).map(Map.Entry::getKey).collect(toImmutableSet());
            NewTableSchema.validated(() -> SchemaValidation.checkLocationOptions(tableName.toString(), set));
            for (Map.Entry<String, Optional<String>> change : changes.entrySet()) {
                String key = change.getKey();
                Optional<String> value = change.getValue();
                // the keys live in the schema, never as options: Paimon refuses them even on an empty table
                if (hasSnapshots || key.equals("primary-key") || key.equals("partition")) {
                    if (value.isPresent()) {
                        checkSet(tableName, schema.options(), key, value.get());
                    }
                    else {
                        checkReset(tableName, key);
                    }
                }
                if (value.isPresent()) {
                    options.put(key, value.get());
                }
                else {
                    options.remove(key);
                }
            }
            return withFields(schema, schema.fields(), schema.primaryKeys(), options);
        }

        private static void checkSet(SchemaTableName tableName, Map<String, String> options, String key, String newValue)
        {
            String oldValue = options.get(key);
            if (IMMUTABLE_OPTIONS.contains(key)) {
                throw refused(tableName, "Change '%s' is not supported yet.".formatted(key));
            }
            switch (key) {
                case "bucket" -> {
                    int oldBucket = oldValue == null ? DYNAMIC_BUCKET : parseInteger(tableName.toString(), key, oldValue);
                    int newBucket = parseInteger(tableName.toString(), key, newValue);
                    if (oldBucket == DYNAMIC_BUCKET) {
                        throw refused(tableName, "Cannot change bucket when it is -1.");
                    }
                    if (newBucket == DYNAMIC_BUCKET) {
                        throw refused(tableName, "Cannot change bucket to -1.");
                    }
                    if (oldBucket != newBucket) {
                        throw refused(tableName, "Cannot change bucket from %s to %s: the table has data, which Paimon rescales by rewriting every partition (INSERT OVERWRITE with the new bucket number), and the Paimon connector does not rescale tables".formatted(oldBucket, newBucket));
                    }
                }
                case "deletion-vectors.enabled" -> {
                    boolean modifiable = booleanOption(tableName.toString(), options, "deletion-vectors.modifiable", false);
                    boolean oldEnabled = oldValue != null && parseBoolean(tableName.toString(), key, oldValue);
                    boolean newEnabled = parseBoolean(tableName.toString(), key, newValue);
                    if (!modifiable && oldEnabled != newEnabled) {
                        throw refused(tableName, ("Cannot change deletion vectors mode from %s to %s. If modifying table deletion-vectors mode without full-compaction, this may result in data duplication. " +
                                "If you are confident, you can set table option 'deletion-vectors.modifiable' = 'true' to allow deletion vectors modification.").formatted(oldEnabled, newEnabled));
                    }
                }
                case "ignore-delete", "ignore-update-before" -> {
                    if (oldValue != null && parseBoolean(tableName.toString(), key, oldValue) && !parseBoolean(tableName.toString(), key, newValue)) {
                        throw refused(tableName, "Cannot change %s from true to false.".formatted(key));
                    }
                }
                case "clustering.columns" -> {
                    if (options.containsKey("pk-clustering-override")) {
                        throw refused(tableName, "Cannot change clustering.columns when pk-clustering-override enabled.");
                    }
                }
                default -> {}
            }
        }

        private static void checkReset(SchemaTableName tableName, String key)
        {
            if (IMMUTABLE_OPTIONS.contains(key)) {
                throw refused(tableName, "Change '%s' is not supported yet.".formatted(key));
            }
            if (key.equals("bucket")) {
                throw refused(tableName, "Cannot reset bucket.");
            }
        }

        private static TrinoException refused(SchemaTableName tableName, String message)
        {
            return new TrinoException(PAIMON_INVALID_TABLE_PROPERTY, "Table %s: %s".formatted(tableName, message));
        }
    }

    private static DataField checkExists(SchemaTableName tableName, TableSchema schema, String name)
    {
        return schema.field(name)
                .orElseThrow(() -> new TrinoException(COLUMN_NOT_FOUND, "Column %s does not exist in the %s table.".formatted(name, tableName)));
    }

    private static TableSchema withFields(TableSchema schema, List<DataField> fields, List<String> primaryKeys, Map<String, String> options)
    {
        return new TableSchema(
                TableSchema.CURRENT_VERSION,
                schema.id(),
                new ArrayList<>(fields),
                schema.highestFieldId(),
                schema.partitionKeys(),
                primaryKeys,
                options,
                schema.comment(),
                schema.timeMillis());
    }
}
