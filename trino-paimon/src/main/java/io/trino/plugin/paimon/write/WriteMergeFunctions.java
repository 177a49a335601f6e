package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.DeduplicateMergeFunction;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.read.MergeFunctions;
import io.trino.plugin.paimon.read.ReadColumn;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The merge function that folds the records of one key before they are written, the same one reads apply
 * (Paimon's write buffer merges with the table's merge function). The only place the write path chooses one.
 */
final class WriteMergeFunctions
{
    private WriteMergeFunctions() {}

    /**
     * @param types Trino types of the table columns, which are the value channels from {@code firstValueChannel} on
     */
    static Supplier<MergeFunction> create(String tableName, TableSchema schema, TableOptions options, List<Type> types, int firstValueChannel)
    {
        List<DataField> fields = schema.fields();
        return switch (options.mergeEngine()) {
            case DEDUPLICATE -> () -> new DeduplicateMergeFunction(options.ignoreDelete());
            case PARTIAL_UPDATE -> MergeFunctions.partialUpdate(
                    tableName,
                    schema,
                    options,
                    IntStream.range(0, fields.size()).mapToObj(i -> new ReadColumn(fields.get(i).id(), types.get(i))).toList(),
                    types,
                    firstValueChannel);
            case AGGREGATION -> MergeFunctions.aggregation(
                    tableName,
                    schema,
                    options,
                    fields.stream().map(DataField::name).toList(),
                    types,
                    IntStream.range(0, fields.size()).map(i -> firstValueChannel + i).toArray());
            case FIRST_ROW -> throw new TrinoException(NOT_SUPPORTED, "Table %s: writing to a table with 'merge-engine' = 'first-row' is not supported".formatted(tableName));
        };
    }
}
