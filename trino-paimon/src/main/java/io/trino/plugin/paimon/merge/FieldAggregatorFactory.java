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
package io.trino.plugin.paimon.merge;

import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.spi.TrinoException;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;

/**
 * Picks the aggregate function of the aggregation merge engine (merge-semantics §7.2) by its Paimon name and checks
 * the column's type against it, as Paimon's factories do when the function is created. Sum and the value-picking
 * functions follow Paimon 1.4; product follows the user's rules, which are Paimon 2.0's.
 */
public final class FieldAggregatorFactory
{
    private FieldAggregatorFactory() {}

    /**
     * @param function the Paimon name of the function, or {@code primary-key} for a primary-key column
     * @param aggregation the column's options: its function's parameters, and whether retract records leave the
     * value as it is ({@code fields.<f>.ignore-retract})
     * @param channel the column's channel in the pages being merged
     * @param context table and column, named in errors
     */
    public static FieldAggregator create(String function, FieldAggregation aggregation, Type type, int channel, String context)
    {
        FieldAggregator aggregator = switch (function.toLowerCase(Locale.ENGLISH)) {
            case "primary-key" -> new PrimaryKeyAggregator(channel, context);
            case "last_value" -> new LastValueAggregator(channel, context);
            case "last_non_null_value" -> new LastNonNullValueAggregator(channel, context);
            case "first_value" -> new FirstValueAggregator(channel, context, function);
            case "first_non_null_value", "first_not_null_value" -> new FirstNonNullValueAggregator(channel, context, function);
            case "min", "max" -> {
                if (type instanceof BooleanType) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: aggregate function '%s' cannot order BOOLEAN values".formatted(context, function));
                }
                yield new MinMaxAggregator(type, channel, function.equalsIgnoreCase("max"), context, function);
            }
            case "sum" -> SumAggregator.create(checkNumeric(function, type, context), channel, context);
            case "product" -> ProductAggregator.create(checkNumeric(function, type, context), channel, context);
            case "bool_and", "bool_or" -> {
                if (!(type instanceof BooleanType)) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'BooleanType' but was '%s'.".formatted(context, function, type));
                }
                yield function.equalsIgnoreCase("bool_and") ? new BoolAndAggregator(channel, context, function) : new BoolOrAggregator(channel, context, function);
            }
            case "listagg" -> {
                if (!(type instanceof VarcharType)) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for listagg column must be 'VarCharType' but was '%s'.".formatted(context, type));
                }
                yield new ListaggAggregator(channel, utf8Slice(aggregation.listAggDelimiter()), aggregation.distinct(), context);
            }
            case "collect" -> new CollectAggregator(checkArray(type, "collect", context), channel, context, aggregation.distinct());
            case "merge_map" -> new MergeMapAggregator(checkMap(type, "merge map", context), channel, context, OptionalInt.empty());
            case "merge_map_with_keytime" -> {
                MapType map = checkMap(type, "merge_map_with_keytime", context);
                if (!(map.getValueType() instanceof RowType row)) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Value type of MAP for merge_map_with_keytime must be ROW but was '%s'.".formatted(context, map.getValueType()));
                }
                if (row.getFields().size() < 2) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: ROW type for merge_map_with_keytime must have at least 2 fields, but found %s.".formatted(context, row.getFields().size()));
                }
                // the timestamp field is fields.<f>.ts-field, by default the row's last field
                int timestampField = row.getFields().size() - 1;
                Optional<String> name = aggregation.timestampField();
                if (name.isPresent()) {
                    timestampField = -1;
                    for (int i = 0; i < row.getFields().size(); i++) {
                        if (row.getFields().get(i).getName().orElse("").equals(name.get())) {
                            timestampField = i;
                        }
                    }
                    if (timestampField < 0) {
                        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Timestamp field '%s' not found in ROW type %s.".formatted(context, name.get(), row));
                    }
                }
                yield new MergeMapAggregator(map, channel, context, OptionalInt.of(timestampField));
            }
            case "nested_update" -> {
                ArrayType nestedTable = checkNestedTable(type, context);
                List<String> nestedKey = aggregation.nestedKey();
                yield new NestedUpdateAggregator(nestedTable, channel, context,
                        nestedKey.isEmpty() ? Optional.empty() : Optional.of(new NestedKeyProjection((RowType) nestedTable.getElementType(), nestedKey, context)),
                        aggregation.countLimit());
            }
            case "nested_partial_update" -> {
                ArrayType nestedTable = checkNestedTable(type, context);
                List<String> nestedKey = aggregation.nestedKey();
                if (nestedKey.isEmpty()) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: nested_partial_update needs the option 'fields.<field>.nested-key'".formatted(context));
                }
                yield new NestedPartialUpdateAggregator(nestedTable, channel, context, new NestedKeyProjection((RowType) nestedTable.getElementType(), nestedKey, context));
            }
            case "hll_sketch" -> binaryUnion(BinaryUnion.HLL_SKETCH, "hll_sketch", "hll sketch", type, channel, context);
            case "theta_sketch" -> binaryUnion(BinaryUnion.THETA_SKETCH, "theta_sketch", "theta sketch", type, channel, context);
            case "rbm32" -> binaryUnion(BinaryUnion.RBM32, "rbm32", "roaring bitmap", type, channel, context);
            case "rbm64" -> binaryUnion(BinaryUnion.RBM64, "rbm64", "roaring bitmap", type, channel, context);
            default -> throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Could not find any factory for identifier '%s' that implements 'org.apache.paimon.mergetree.compact.aggregate.factory.FieldAggregatorFactory' in the classpath.".formatted(context, function));
        };
        return aggregation.ignoreRetract() ? new IgnoreRetractAggregator(aggregator) : aggregator;
    }

    private static Type checkNumeric(String function, Type type, String context)
    {
        if (type instanceof TinyintType || type instanceof SmallintType || type instanceof IntegerType || type instanceof BigintType
                || type instanceof RealType || type instanceof DoubleType || type instanceof DecimalType) {
            return type;
        }
        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'NumericType' but was '%s'.".formatted(context, function, type));
    }

    private static ArrayType checkArray(Type type, String function, String context)
    {
        if (type instanceof ArrayType array) {
            return array;
        }
        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'Array' but was '%s'.".formatted(context, function, type));
    }

    private static MapType checkMap(Type type, String function, String context)
    {
        if (type instanceof MapType map) {
            return map;
        }
        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'MAP' but was '%s'.".formatted(context, function, type));
    }

    private static ArrayType checkNestedTable(Type type, String context)
    {
        if (type instanceof ArrayType array && array.getElementType() instanceof RowType) {
            return array;
        }
        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for nested table column must be 'Array<Row>' but was '%s'.".formatted(context, type));
    }

    // Paimon names the column's kind in the message: "hll sketch", "roaring bitmap", ...
    private static FieldAggregator binaryUnion(BinaryUnion union, String function, String kind, Type type, int channel, String context)
    {
        if (!(type instanceof VarbinaryType)) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'VarBinaryType' but was '%s'.".formatted(context, kind, type));
        }
        return new BinaryUnionAggregator(union, function, channel, context);
    }
}
