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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.PaimonTableHandle;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The columns a scan reads for handles some of which are fields nested in {@code ROW} columns: each column once, as a
 * {@code ROW} pruned to the fields the handles go through (whole where a handle takes the whole column or a field
 * whole), and for each handle the column it is read from and the path of field indices into that pruned type. The
 * file readers read only the pruned type's fields (Parquet column chunks, ORC streams), and the merge carries the
 * pruned values, which is right for merge engines that pick one record of a key whole.
 */
public final class NestedProjections
{
    // the columns to read, each a whole-column handle of its pruned type
    private final List<PaimonColumnHandle> columns;
    // per handle, the index of its column in columns
    private final int[] outputColumns;
    // per handle, the field indices into its column's pruned type (none for a whole column)
    private final int[][] outputPaths;

    private NestedProjections(List<PaimonColumnHandle> columns, int[] outputColumns, int[][] outputPaths)
    {
        this.columns = ImmutableList.copyOf(columns);
        this.outputColumns = requireNonNull(outputColumns, "outputColumns is null");
        this.outputPaths = requireNonNull(outputPaths, "outputPaths is null");
    }

    /**
     * Whether a scan of the handle's table can read nested fields instead of whole columns: of append tables, and
     * of primary-key tables whose merge picks one record of a key whole (deduplicate, first-row), in the table and
     * in {@code $ro}; not where the merge combines records field by field (partial-update, aggregation), whose
     * functions take whole values. The audit log reads whole columns.
     */
    public static boolean supported(PaimonTableHandle handle)
    {
        PaimonTable table = handle.table();
        if (handle.view() == PaimonTableHandle.View.AUDIT_LOG || handle.view() == PaimonTableHandle.View.CHANGES) {
            return false;
        }
        return !table.hasPrimaryKey() || switch (table.options().mergeEngine()) {
            case DEDUPLICATE, FIRST_ROW -> true;
            case PARTIAL_UPDATE, AGGREGATION -> false;
        };
    }

    static NestedProjections of(List<PaimonColumnHandle> handles)
    {
        // the fields read of each column, by field id, in the order the columns first appear
        Map<Integer, ReadFields> fieldsOfColumn = new LinkedHashMap<>();
        Map<Integer, PaimonColumnHandle> baseOfColumn = new LinkedHashMap<>();
        for (PaimonColumnHandle handle : handles) {
            baseOfColumn.putIfAbsent(handle.fieldId(), handle.baseColumn());
            fieldsOfColumn.computeIfAbsent(handle.fieldId(), _ -> new ReadFields()).add(handle.path());
        }
        List<PaimonColumnHandle> columns = new ArrayList<>();
        Map<Integer, Integer> indexOfColumn = new LinkedHashMap<>();
        for (Map.Entry<Integer, PaimonColumnHandle> entry : baseOfColumn.entrySet()) {
            PaimonColumnHandle base = entry.getValue();
            indexOfColumn.put(entry.getKey(), columns.size());
            columns.add(new PaimonColumnHandle(base.fieldId(), base.name(), fieldsOfColumn.get(entry.getKey()).prune(base.type()), base.nullable()));
        }
        int[] outputColumns = new int[handles.size()];
        int[][] outputPaths = new int[handles.size()][];
        for (int i = 0; i < handles.size(); i++) {
            PaimonColumnHandle handle = handles.get(i);
            outputColumns[i] = indexOfColumn.get(handle.fieldId());
            outputPaths[i] = fieldsOfColumn.get(handle.fieldId()).prunedPath(handle.path());
        }
        return new NestedProjections(columns, outputColumns, outputPaths);
    }

    /** The columns to read, each once, as whole-column handles of their pruned types. */
    List<PaimonColumnHandle> columns()
    {
        return columns;
    }

    int outputCount()
    {
        return outputColumns.length;
    }

    /** The index in {@link #columns()} of the column the handle at {@code output} is read from. */
    int outputColumn(int output)
    {
        return outputColumns[output];
    }

    /** The field indices into that column's pruned type that lead to the handle's value; none for a whole column. */
    int[] outputPath(int output)
    {
        return outputPaths[output];
    }

    /** The fields read of a value: all of them, or some (by field index) and of each what it reads. */
    private static final class ReadFields
    {
        private boolean whole;
        private final TreeMap<Integer, ReadFields> fields = new TreeMap<>();

        void add(List<Integer> path)
        {
            if (whole) {
                return;
            }
            if (path.isEmpty()) {
                whole = true;
                fields.clear();
                return;
            }
            fields.computeIfAbsent(path.getFirst(), _ -> new ReadFields()).add(path.subList(1, path.size()));
        }

        Type prune(Type type)
        {
            if (whole) {
                return type;
            }
            List<RowType.Field> rowFields = ((RowType) type).getFields();
            List<RowType.Field> kept = new ArrayList<>();
            for (Map.Entry<Integer, ReadFields> field : fields.entrySet()) {
                RowType.Field rowField = rowFields.get(field.getKey());
                kept.add(new RowType.Field(rowField.getName(), field.getValue().prune(rowField.getType())));
            }
            return RowType.from(kept);
        }

        int[] prunedPath(List<Integer> path)
        {
            int[] pruned = new int[path.size()];
            ReadFields level = this;
            for (int i = 0; i < pruned.length; i++) {
                if (level.whole) {
                    pruned[i] = path.get(i);
                    continue;
                }
                pruned[i] = level.fields.headMap(path.get(i)).size();
                level = level.fields.get(path.get(i));
            }
            return pruned;
        }
    }
}
