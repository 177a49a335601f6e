package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.merge.MergeFunctionFactory;
import io.trino.plugin.paimon.merge.ValueColumn;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

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
        // every column of the row is a value channel, and the merged row is the whole row
        List<ValueColumn> values = IntStream.range(0, fields.size())
                .mapToObj(i -> new ValueColumn(fields.get(i).name(), types.get(i), firstValueChannel + i))
                .toList();
        int[] outputChannels = IntStream.range(0, fields.size()).map(i -> firstValueChannel + i).toArray();
        MergeFunctionFactory factory = new MergeFunctionFactory(MergeEngineOptions.toSpec(schema, options), values, outputChannels);
        return factory::create;
    }
}
