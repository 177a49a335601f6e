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
package io.trino.plugin.paimon.catalog.hive;

import io.trino.filesystem.Location;
import io.trino.hive.thrift.metastore.FieldSchema;
import io.trino.hive.thrift.metastore.SerDeInfo;
import io.trino.hive.thrift.metastore.StorageDescriptor;
import io.trino.hive.thrift.metastore.Table;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.connector.SchemaTableName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.plugin.paimon.catalog.hive.HiveTypeNames.hiveTypeName;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;

/**
 * A Paimon table's entry in a Hive Metastore, as Paimon's HiveCatalog writes it: {@code table_type=PAIMON}, Paimon's
 * storage handler, input and output formats and SerDe, the columns in Hive types, the table's folder as location,
 * and the table options as parameters. The entry only names and locates the table; its schema files stay the truth.
 */
final class PaimonTableEntry
{
    static final String INPUT_FORMAT = "org.apache.paimon.hive.mapred.PaimonInputFormat";
    static final String OUTPUT_FORMAT = "org.apache.paimon.hive.mapred.PaimonOutputFormat";
    static final String SERDE = "org.apache.paimon.hive.PaimonSerDe";
    static final String STORAGE_HANDLER = "org.apache.paimon.hive.PaimonStorageHandler";
    static final String TABLE_TYPE_PARAMETER = "table_type";
    static final String PAIMON_TABLE_TYPE = "PAIMON";
    static final String STORAGE_HANDLER_PARAMETER = "storage_handler";
    static final String EXTERNAL_PARAMETER = "EXTERNAL";
    static final String COMMENT_PARAMETER = "comment";
    static final String MANAGED_TABLE = "MANAGED_TABLE";
    static final String PURGE_PARAMETER = "external.table.purge";
    static final String EXTERNAL_TABLE = "EXTERNAL_TABLE";
    // the table option that registers partitions in the metastore (Paimon's metastore.partitioned-table)
    static final String PARTITIONED_TABLE_OPTION = "metastore.partitioned-table";
    // when options are not all synchronised, those under this prefix are, without it
    private static final String HIVE_OPTION_PREFIX = "hive.";
    private static final Set<String> ALWAYS_SYNCHRONISED_OPTIONS = Set.of("partition.expiration-time", "data-file.path-directory");

    private PaimonTableEntry() {}

    /** Whether an entry is a Paimon table: Paimon's HiveCatalog decides by the input and output formats alone. */
    static boolean isPaimonTable(Table table)
    {
        return table.getSd() != null
                && INPUT_FORMAT.equals(table.getSd().getInputFormat())
                && OUTPUT_FORMAT.equals(table.getSd().getOutputFormat());
    }

    /**
     * Whether the table's files outlive its entry. Hive 4's metastore turns every new non-transactional managed table
     * into an external one marked {@code external.table.purge=TRUE}, Hive's mark of files that go with the entry.
     */
    static boolean isExternal(Table table)
    {
        return EXTERNAL_TABLE.equals(table.getTableType())
                && !"TRUE".equalsIgnoreCase(table.getParameters() == null ? null : table.getParameters().get(PURGE_PARAMETER));
    }

    static Optional<String> location(Table table)
    {
        return Optional.ofNullable(table.getSd())
                .map(StorageDescriptor::getLocation)
                .filter(location -> !location.isEmpty());
    }

    /** The entry of a new table, registered by {@code owner} at {@code location}. */
    static Table newEntry(SchemaTableName name, TableSchema schema, Location location, String owner, boolean external, boolean syncAllProperties, long nowMillis)
    {
        Table table = emptyEntry(name, owner, nowMillis);
        table.setRetention(Integer.MAX_VALUE);
        table.setPartitionKeys(new ArrayList<>());
        table.setTableType(external ? EXTERNAL_TABLE : MANAGED_TABLE);
        Map<String, String> parameters = new HashMap<>(synchronisedOptions(schema, syncAllProperties));
        parameters.put(TABLE_TYPE_PARAMETER, PAIMON_TABLE_TYPE);
        parameters.put(STORAGE_HANDLER_PARAMETER, STORAGE_HANDLER);
        if (external) {
            parameters.put(EXTERNAL_PARAMETER, "TRUE");
        }
        table.setParameters(parameters);
        describe(table, schema, location);
        return table;
    }

    /** A metastore entry with its name, owner and creation time, as a new table's and a new view's entries start. */
    static Table emptyEntry(SchemaTableName name, String owner, long nowMillis)
    {
        Table table = new Table();
        table.setDbName(name.getSchemaName());
        table.setTableName(name.getTableName());
        table.setOwner(owner);
        int nowSeconds = (int) (nowMillis / 1000);
        table.setCreateTime(nowSeconds);
        table.setLastAccessTime(nowSeconds);
        return table;
    }

    /**
     * Brings an existing entry in line with a new schema of its table, as Paimon's HiveCatalog does on ALTER TABLE:
     * options added or changed are copied, removed ones dropped, columns and location rewritten.
     */
    static Table updatedEntry(Table existing, TableSchema previous, TableSchema next, Location location, boolean syncAllProperties)
    {
        Table table = existing.deepCopy();
        Map<String, String> parameters = new HashMap<>(table.getParameters() == null ? Map.of() : table.getParameters());
        parameters.putAll(synchronisedOptions(next, syncAllProperties));
        for (String removed : previous.options().keySet()) {
            if (!next.options().containsKey(removed)) {
                parameters.remove(removed);
            }
        }
        table.setParameters(parameters);
        describe(table, next, location);
        return table;
    }

    private static Map<String, String> synchronisedOptions(TableSchema schema, boolean syncAllProperties)
    {
        Map<String, String> options = new HashMap<>();
        if (syncAllProperties) {
            options.putAll(schema.options());
            if (!schema.primaryKeys().isEmpty()) {
                options.put("primary-key", String.join(",", schema.primaryKeys()));
            }
            if (!schema.partitionKeys().isEmpty()) {
                options.put("partition", String.join(",", schema.partitionKeys()));
            }
            // Paimon's bucket keys: the option, else the primary keys without the partition keys
            String bucketKey = String.join(",", TableOptions.bucketKey(schema));
            if (!bucketKey.isEmpty()) {
                options.put("bucket-key", bucketKey);
            }
            return options;
        }
        schema.options().forEach((key, value) -> {
            if (key.startsWith(HIVE_OPTION_PREFIX)) {
                options.put(key.substring(HIVE_OPTION_PREFIX.length()), value);
            }
            else if (ALWAYS_SYNCHRONISED_OPTIONS.contains(key)) {
                options.put(key, value);
            }
        });
        return options;
    }

    /** Sets what the schema decides: formats, SerDe, columns, partition keys (when registered), comment, location. */
    private static void describe(Table table, TableSchema schema, Location location)
    {
        StorageDescriptor storage = table.getSd() == null ? new StorageDescriptor() : table.getSd();
        storage.setInputFormat(INPUT_FORMAT);
        storage.setOutputFormat(OUTPUT_FORMAT);
        SerDeInfo serde = storage.getSerdeInfo() == null ? new SerDeInfo() : storage.getSerdeInfo();
        serde.setParameters(new HashMap<>());
        serde.setSerializationLib(SERDE);
        storage.setSerdeInfo(serde);

        boolean partitionsInMetastore = !schema.partitionKeys().isEmpty()
                && booleanOption(table.getDbName() + "." + table.getTableName(), schema.options(), PARTITIONED_TABLE_OPTION, false);
        Set<String> partitionKeys = partitionsInMetastore ? Set.copyOf(schema.partitionKeys()) : Set.of();
        if (partitionsInMetastore) {
            List<FieldSchema> keys = new ArrayList<>();
            for (String key : schema.partitionKeys()) {
                keys.add(column(schema.field(key).orElseThrow()));
            }
            table.setPartitionKeys(keys);
        }
        List<FieldSchema> columns = new ArrayList<>();
        for (DataField field : schema.fields()) {
            if (!partitionKeys.contains(field.name())) {
                columns.add(column(field));
            }
        }
        storage.setCols(columns);
        storage.setLocation(location.toString());
        table.setSd(storage);
        schema.comment().ifPresent(comment -> table.getParameters().put(COMMENT_PARAMETER, comment));
    }

    private static FieldSchema column(DataField field)
    {
        return new FieldSchema(field.name(), hiveTypeName(field), field.description().orElse(null));
    }
}
