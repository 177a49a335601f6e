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
import io.trino.plugin.paimon.format.schema.TableSchema;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The row id of UPDATE, DELETE and MERGE on a primary-key table: a ROW of the columns a {@code -D} record of the row
 * needs, because Trino sends only the row id (its data columns are NULL) for the rows to delete. That is the primary
 * key with the partition keys, which name and route the row; the sequence fields ({@code sequence.field} and the
 * partial-update sequence groups'), so that the delete orders after the row it removes as Paimon's own delete of the
 * read row does; and the NOT NULL columns, which a data file cannot hold a null in. Fields in table column order.
 */
public final class MergeRowId
{
    /** The field id of the row-id column handle; no Paimon field has a negative id. */
    public static final int FIELD_ID = -1;
    public static final String COLUMN_NAME = "$row_id";

    private MergeRowId() {}

    public static List<DataField> fields(TableSchema schema, TableOptions options)
    {
        Set<String> names = new HashSet<>(schema.primaryKeys());
        names.addAll(schema.partitionKeys());
        names.addAll(options.sequenceFields());
        options.sequenceGroups().keySet().forEach(names::addAll);
        ImmutableList.Builder<DataField> fields = ImmutableList.builder();
        for (DataField field : schema.fields()) {
            if (names.contains(field.name()) || !field.type().nullable()) {
                fields.add(field);
            }
        }
        return fields.build();
    }
}
