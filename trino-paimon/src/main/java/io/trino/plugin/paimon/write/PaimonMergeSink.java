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
package io.trino.plugin.paimon.write;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.table.RowChangeRules;
import io.trino.plugin.paimon.table.RowChangeRules.NullRefusal;
import io.trino.plugin.paimon.table.RowChangeRules.SequenceGroupColumns;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.type.Type;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Writes the changes of an UPDATE, DELETE or MERGE as records of a primary-key table, through the INSERT's page sink
 * (same routing, buffers, sequence numbers and files): an inserted row as +I; the new row of an update as +U (the key
 * cannot change, so the new row alone replaces the old one, as Paimon's own update writes it); a deleted row as a -D
 * record built from its row id, the columns it does not carry being NULL. The delete half of an update is not
 * written. Within a page deletes are written before the rows added, so that a MERGE that deletes a key and inserts
 * it again keeps the new row. Rows the table's rules refuse fail the statement before anything is committed.
 */
public final class PaimonMergeSink
        implements ConnectorMergeSink
{
    private final String tableName;
    private final PaimonPageSink sink;
    private final List<Type> columnTypes;
    private final int[] rowIdColumns;
    private final RowChangeRules rules;

    /**
     * @param rowIdColumns for each field of the row id, the table column it holds
     */
    public PaimonMergeSink(String tableName, PaimonPageSink sink, List<Type> columnTypes, int[] rowIdColumns, RowChangeRules rules)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.columnTypes = ImmutableList.copyOf(columnTypes);
        this.rowIdColumns = rowIdColumns.clone();
        this.rules = requireNonNull(rules, "rules is null");
    }

    @Override
    public void storeMergedRows(Page page)
    {
        int columnCount = columnTypes.size();
        checkArgument(page.getChannelCount() == columnCount + 3, "merge page has %s channels, expected %s", page.getChannelCount(), columnCount + 3);
        Block operations = page.getBlock(columnCount);
        Block caseNumbers = page.getBlock(columnCount + 1);
        int positionCount = page.getPositionCount();
        int[] inserts = new int[positionCount];
        int[] updates = new int[positionCount];
        int[] deletes = new int[positionCount];
        int insertCount = 0;
        int updateCount = 0;
        int deleteCount = 0;
        for (int position = 0; position < positionCount; position++) {
            byte operation = TINYINT.getByte(operations, position);
            switch (operation) {
                case INSERT_OPERATION_NUMBER -> inserts[insertCount++] = position;
                case UPDATE_INSERT_OPERATION_NUMBER -> {
                    checkUpdatedRow(page, position, INTEGER.getInt(caseNumbers, position));
                    updates[updateCount++] = position;
                }
                case DELETE_OPERATION_NUMBER -> deletes[deleteCount++] = position;
                // the key of an updated row does not change, so its new row replaces it
                case UPDATE_DELETE_OPERATION_NUMBER -> {}
                default -> throw new TrinoException(PAIMON_INTERNAL_ERROR, "Table %s: unexpected merge operation %s".formatted(tableName, operation));
            }
        }
        if (deleteCount > 0) {
            rules.checkDelete(tableName);
            sink.appendRows(deletedRows(page).getPositions(deletes, 0, deleteCount), KeyValueLayout.DELETE);
        }
        Page rows = page.getColumns(dataChannels());
        if (updateCount > 0) {
            sink.appendRows(rows.getPositions(updates, 0, updateCount), KeyValueLayout.UPDATE_AFTER);
        }
        if (insertCount > 0) {
            sink.appendRows(rows.getPositions(inserts, 0, insertCount), KeyValueLayout.INSERT);
        }
    }

    private void checkUpdatedRow(Page page, int position, int caseNumber)
    {
        for (NullRefusal refusal : rules.nullRefusals().getOrDefault(caseNumber, List.of())) {
            if (page.getBlock(refusal.column()).isNull(position)) {
                throw RowChangeRules.refuse(tableName, "column '%s' cannot be updated to NULL: %s".formatted(refusal.columnName(), refusal.reason()));
            }
        }
        for (SequenceGroupColumns group : rules.sequenceGroups()) {
            if (allNull(page, position, group.sequenceColumns()) && !allNull(page, position, group.memberColumns())) {
                throw RowChangeRules.refuse(tableName, ("a row whose sequence group %s has values but NULL sequence fields cannot be updated: Paimon reads the values as written "
                        + "while the row has a single record and skips the group once it is merged with the new row").formatted(group.sequenceFields()));
            }
        }
    }

    private static boolean allNull(Page page, int position, List<Integer> columns)
    {
        for (int column : columns) {
            if (!page.getBlock(column).isNull(position)) {
                return false;
            }
        }
        return true;
    }

    // the table columns of the rows to delete: the row id's fields where it has them, NULL elsewhere
    private Page deletedRows(Page page)
    {
        int positionCount = page.getPositionCount();
        List<Block> fields = RowBlock.getRowFieldsFromBlock(page.getBlock(columnTypes.size() + 2));
        Block[] blocks = new Block[columnTypes.size()];
        for (int i = 0; i < rowIdColumns.length; i++) {
            blocks[rowIdColumns[i]] = fields.get(i);
        }
        for (int column = 0; column < blocks.length; column++) {
            if (blocks[column] == null) {
                blocks[column] = RunLengthEncodedBlock.create(columnTypes.get(column), null, positionCount);
            }
        }
        return new Page(positionCount, blocks);
    }

    private int[] dataChannels()
    {
        int[] channels = new int[columnTypes.size()];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = i;
        }
        return channels;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        return sink.finish();
    }

    @Override
    public void abort()
    {
        sink.abort();
    }

    /** The table column of each row-id field, by name. */
    public static int[] rowIdColumns(List<String> columnNames, List<String> rowIdFieldNames)
    {
        int[] columns = new int[rowIdFieldNames.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = columnNames.indexOf(rowIdFieldNames.get(i));
        }
        return columns;
    }
}
