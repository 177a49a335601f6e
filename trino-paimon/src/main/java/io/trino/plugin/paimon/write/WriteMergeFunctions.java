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
