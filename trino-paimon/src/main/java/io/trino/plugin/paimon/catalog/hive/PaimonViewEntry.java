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

import io.trino.hive.thrift.metastore.FieldSchema;
import io.trino.hive.thrift.metastore.SerDeInfo;
import io.trino.hive.thrift.metastore.StorageDescriptor;
import io.trino.hive.thrift.metastore.Table;
import io.trino.plugin.paimon.catalog.PaimonView;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.spi.connector.SchemaTableName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.catalog.hive.HiveTypeNames.hiveTypeName;
import static io.trino.plugin.paimon.catalog.hive.HiveTypeNames.paimonType;
import static io.trino.plugin.paimon.catalog.hive.PaimonTableEntry.COMMENT_PARAMETER;

/**
 * A Paimon view in the metastore, as Paimon's HiveCatalog keeps one: a {@code VIRTUAL_VIEW} entry whose original and
 * expanded texts are the query, its columns mirrored as Hive types, its options as parameters. Views that Trino's Hive
 * connector stores there (an encoded definition) are not Paimon views.
 */
final class PaimonViewEntry
{
    static final String VIRTUAL_VIEW = "VIRTUAL_VIEW";
    // the parameter Trino's Hive connector marks its own views with
    private static final String HIVE_CONNECTOR_VIEW_PARAMETER = "presto_view";
    // what a new metastore entry carries when nothing else is said (Hive's defaults, which Paimon's views keep)
    private static final String DEFAULT_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    private static final String DEFAULT_INPUT_FORMAT = "org.apache.hadoop.mapred.SequenceFileInputFormat";
    private static final String DEFAULT_OUTPUT_FORMAT = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat";

    private PaimonViewEntry() {}

    static boolean isPaimonView(Table table)
    {
        return VIRTUAL_VIEW.equals(table.getTableType())
                && (table.getParameters() == null || !table.getParameters().containsKey(HIVE_CONNECTOR_VIEW_PARAMETER));
    }

    /**
     * The view of an entry.
     *
     * @throws IllegalArgumentException when a column's Hive type is not one Paimon maps
     */
    static PaimonView view(Table table)
    {
        List<DataField> fields = new ArrayList<>();
        for (FieldSchema column : table.getSd().getCols()) {
            fields.add(new DataField(fields.size(), column.getName(), paimonType(column.getType()), Optional.ofNullable(column.getComment()), Optional.empty()));
        }
        Map<String, String> options = new HashMap<>(table.getParameters() == null ? Map.of() : table.getParameters());
        Optional<String> comment = Optional.ofNullable(options.remove(COMMENT_PARAMETER));
        return new PaimonView(fields, table.getViewExpandedText(), Map.of(), comment, options);
    }

    /** An entry's parameters with the view comment set, or removed when empty. */
    static Map<String, String> withComment(Map<String, String> parameters, Optional<String> comment)
    {
        Map<String, String> changed = new HashMap<>(parameters == null ? Map.of() : parameters);
        comment.ifPresentOrElse(text -> changed.put(COMMENT_PARAMETER, text), () -> changed.remove(COMMENT_PARAMETER));
        return changed;
    }

    static Table newEntry(SchemaTableName name, PaimonView view, String owner, long nowMillis)
    {
        Table table = PaimonTableEntry.emptyEntry(name, owner, nowMillis);
        table.setTableType(VIRTUAL_VIEW);
        table.setPartitionKeys(new ArrayList<>());
        Map<String, String> parameters = new HashMap<>(view.options());
        view.comment().ifPresent(comment -> parameters.put(COMMENT_PARAMETER, comment));
        table.setParameters(parameters);
        table.setViewOriginalText(view.query());
        table.setViewExpandedText(view.query());

        StorageDescriptor storage = new StorageDescriptor();
        List<FieldSchema> columns = new ArrayList<>();
        for (DataField field : view.fields()) {
            columns.add(new FieldSchema(field.name(), hiveTypeName(field), field.description().orElse(null)));
        }
        storage.setCols(columns);
        storage.setInputFormat(DEFAULT_INPUT_FORMAT);
        storage.setOutputFormat(DEFAULT_OUTPUT_FORMAT);
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib(DEFAULT_SERDE);
        serde.setParameters(new HashMap<>());
        storage.setSerdeInfo(serde);
        storage.setParameters(new HashMap<>());
        table.setSd(storage);
        return table;
    }
}
