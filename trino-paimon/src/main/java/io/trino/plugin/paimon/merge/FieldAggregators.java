package io.trino.plugin.paimon.merge;

import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;
import static io.airlift.slice.Slices.utf8Slice;
import static java.lang.Float.floatToRawIntBits;
import static java.lang.Float.intBitsToFloat;

/**
 * The aggregate functions of the aggregation merge engine (merge-semantics §7.2), by Paimon name. Sum and the
 * value-picking functions follow Paimon 1.4; product follows the user's rules (exact integers, overflow and
 * division errors, DECIMAL rounding half up and NULL when the precision overflows), which are Paimon 2.0's.
 */
public final class FieldAggregators
{
    private FieldAggregators() {}

    /**
     * @param context table and column, named in errors
     */
    public static FieldAggregator create(String function, boolean ignoreRetract, Type type, int channel, String context)
    {
        return create(function, ignoreRetract, type, channel, context, _ -> Optional.empty());
    }

    /**
     * @param fieldOption the column's {@code fields.<f>.<suffix>} options, by suffix
     */
    public static FieldAggregator create(String function, boolean ignoreRetract, Type type, int channel, String context, Function<String, Optional<String>> fieldOption)
    {
        FieldAggregator aggregator = switch (function.toLowerCase(Locale.ENGLISH)) {
            case "primary-key" -> new PickValue(channel, Pick.LAST, context, "primary-key", true);
            case "last_value" -> new PickValue(channel, Pick.LAST, context, function, true);
            case "last_non_null_value" -> new PickValue(channel, Pick.LAST_NON_NULL, context, function, true);
            case "first_value" -> new PickValue(channel, Pick.FIRST, context, function, false);
            case "first_non_null_value", "first_not_null_value" -> new PickValue(channel, Pick.FIRST_NON_NULL, context, function, false);
            case "min", "max" -> {
                if (type instanceof BooleanType) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: aggregate function '%s' cannot order BOOLEAN values".formatted(context, function));
                }
                // Paimon's min and max order floating point with Double.compare: NaN is the greatest value
                ValueComparator comparator = switch (type) {
                    case DoubleType _ -> (left, leftPosition, right, rightPosition) ->
                            Double.compare(DoubleType.DOUBLE.getDouble(left, leftPosition), DoubleType.DOUBLE.getDouble(right, rightPosition));
                    case RealType _ -> (left, leftPosition, right, rightPosition) ->
                            Float.compare(RealType.REAL.getFloat(left, leftPosition), RealType.REAL.getFloat(right, rightPosition));
                    default -> ValueComparator.forType(type);
                };
                yield new MinMax(channel, comparator, function.equalsIgnoreCase("max"), context, function);
            }
            case "sum" -> new Arithmetic(checkNumeric(function, type, context), channel, false, context);
            case "product" -> new Arithmetic(checkNumeric(function, type, context), channel, true, context);
            case "bool_and", "bool_or" -> {
                if (!(type instanceof BooleanType)) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for %s column must be 'BooleanType' but was '%s'.".formatted(context, function, type));
                }
                yield new BooleanAggregate(channel, function.equalsIgnoreCase("bool_and"), context, function);
            }
            case "listagg" -> {
                if (!(type instanceof VarcharType)) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: Data type for listagg column must be 'VarCharType' but was '%s'.".formatted(context, type));
                }
                yield new ListAgg(channel,
                        utf8Slice(fieldOption.apply("list-agg-delimiter").orElse(",")),
                        booleanOption(fieldOption, "distinct"),
                        context);
            }
            case "collect" -> new CollectAggregator(checkArray(type, "collect", context), channel, context, booleanOption(fieldOption, "distinct"));
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
                Optional<String> name = fieldOption.apply("ts-field");
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
                List<String> nestedKey = nestedKey(fieldOption);
                yield new NestedUpdateAggregator(nestedTable, channel, context,
                        nestedKey.isEmpty() ? Optional.empty() : Optional.of(new NestedKeyProjection((RowType) nestedTable.getElementType(), nestedKey, context)),
                        countLimit(fieldOption, context));
            }
            case "nested_partial_update" -> {
                ArrayType nestedTable = checkNestedTable(type, context);
                List<String> nestedKey = nestedKey(fieldOption);
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
        return ignoreRetract ? new IgnoreRetract(aggregator) : aggregator;
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

    private static boolean booleanOption(Function<String, Optional<String>> fieldOption, String suffix)
    {
        return fieldOption.apply(suffix).map(value -> value.trim().equalsIgnoreCase("true")).orElse(false);
    }

    // a comma-separated list of the nested row's field names, trimmed
    private static List<String> nestedKey(Function<String, Optional<String>> fieldOption)
    {
        return fieldOption.apply("nested-key")
                .map(value -> Arrays.stream(value.split(",")).map(String::trim).toList())
                .orElse(List.of());
    }

    private static int countLimit(Function<String, Optional<String>> fieldOption, String context)
    {
        Optional<String> value = fieldOption.apply("count-limit");
        if (value.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        try {
            return Integer.parseInt(value.get().trim());
        }
        catch (NumberFormatException e) {
            throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: count-limit must be an integer but was '%s'".formatted(context, value.get()), e);
        }
    }

    static TrinoException retractUnsupported(String context, String function)
    {
        return new TrinoException(PAIMON_MERGE_ERROR, "%s: Aggregate function '%s' does not support retraction, If you allow this function to ignore retraction messages, you can configure 'fields.${field_name}.ignore-retract'='true'.".formatted(context, function));
    }

    private enum Pick
    {
        LAST, LAST_NON_NULL, FIRST, FIRST_NON_NULL
    }

    /** Functions whose result is one of the inputs: a reference to it is all the state. */
    private static final class PickValue
            implements FieldAggregator
    {
        private final int channel;
        private final Pick pick;
        private final String context;
        private final String function;
        private final boolean retractable;
        private Page page;
        private int position;
        private boolean initialized;

        private PickValue(int channel, Pick pick, String context, String function, boolean retractable)
        {
            this.channel = channel;
            this.pick = pick;
            this.context = context;
            this.function = function;
            this.retractable = retractable;
        }

        @Override
        public void reset()
        {
            page = null;
            initialized = false;
        }

        @Override
        public void add(Page page, int position)
        {
            boolean isNull = page.getBlock(channel).isNull(position);
            switch (pick) {
                case LAST -> take(page, position);
                case LAST_NON_NULL -> {
                    if (!isNull) {
                        take(page, position);
                    }
                }
                // first_value keeps the first input even when it is null
                case FIRST -> {
                    if (!initialized) {
                        initialized = true;
                        take(page, position);
                    }
                }
                case FIRST_NON_NULL -> {
                    if (!initialized && !isNull) {
                        initialized = true;
                        take(page, position);
                    }
                }
            }
        }

        @Override
        public void addOlder(Page page, int position)
        {
            // Paimon folds an older input as agg(input, accumulator): the roles of the two values swap, the
            // "initialized" state of the first-value functions does not
            switch (pick) {
                case LAST -> {}
                case LAST_NON_NULL -> {
                    if (accumulatorIsNull()) {
                        take(page, position);
                    }
                }
                case FIRST -> {
                    if (initialized) {
                        take(page, position);
                    }
                    initialized = true;
                }
                case FIRST_NON_NULL -> {
                    if (!initialized && !accumulatorIsNull()) {
                        initialized = true;
                    }
                    else {
                        take(page, position);
                    }
                }
            }
        }

        private boolean accumulatorIsNull()
        {
            return page == null || page.getBlock(channel).isNull(position);
        }

        private void take(Page page, int position)
        {
            this.page = page;
            this.position = position;
        }

        @Override
        public void retract(Page page, int position)
        {
            if (!retractable) {
                throw retractUnsupported(context, function);
            }
            switch (pick) {
                case LAST -> {
                    if (function.equals("primary-key")) {
                        this.page = page;
                        this.position = position;
                    }
                    else {
                        this.page = null;
                    }
                }
                case LAST_NON_NULL -> {
                    if (!page.getBlock(channel).isNull(position)) {
                        this.page = null;
                    }
                }
                default -> throw retractUnsupported(context, function);
            }
        }

        @Override
        public void set(Page page, int position)
        {
            this.page = page;
            this.position = position;
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            rowPages[column] = page;
            rowPositions[column] = position;
        }
    }

    private static final class MinMax
            implements FieldAggregator
    {
        private final int channel;
        private final ValueComparator comparator;
        private final boolean max;
        private final String context;
        private final String function;
        private Page page;
        private int position;

        private MinMax(int channel, ValueComparator comparator, boolean max, String context, String function)
        {
            this.channel = channel;
            this.comparator = comparator;
            this.max = max;
            this.context = context;
            this.function = function;
        }

        @Override
        public void reset()
        {
            page = null;
        }

        @Override
        public void add(Page page, int position)
        {
            Block block = page.getBlock(channel);
            if (block.isNull(position)) {
                return;
            }
            if (this.page != null) {
                int comparison = comparator.compare(block, position, this.page.getBlock(channel), this.position);
                if (max ? comparison <= 0 : comparison >= 0) {
                    return;
                }
            }
            this.page = page;
            this.position = position;
        }

        @Override
        public void addOlder(Page page, int position)
        {
            add(page, position);
        }

        @Override
        public void retract(Page page, int position)
        {
            throw retractUnsupported(context, function);
        }

        @Override
        public void set(Page page, int position)
        {
            boolean isNull = page.getBlock(channel).isNull(position);
            this.page = isNull ? null : page;
            this.position = position;
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            rowPages[column] = page;
            rowPositions[column] = position;
        }
    }

    private static final class BooleanAggregate
            implements FieldAggregator
    {
        private final int channel;
        private final boolean and;
        private final String context;
        private final String function;
        private boolean present;
        private boolean value;

        private BooleanAggregate(int channel, boolean and, String context, String function)
        {
            this.channel = channel;
            this.and = and;
            this.context = context;
            this.function = function;
        }

        @Override
        public void reset()
        {
            present = false;
        }

        @Override
        public void add(Page page, int position)
        {
            Block block = page.getBlock(channel);
            if (block.isNull(position)) {
                return;
            }
            boolean input = BooleanType.BOOLEAN.getBoolean(block, position);
            value = present ? (and ? value && input : value || input) : input;
            present = true;
        }

        @Override
        public void addOlder(Page page, int position)
        {
            add(page, position);
        }

        @Override
        public void retract(Page page, int position)
        {
            throw retractUnsupported(context, function);
        }

        @Override
        public void set(Page page, int position)
        {
            Block block = page.getBlock(channel);
            present = !block.isNull(position);
            if (present) {
                value = BooleanType.BOOLEAN.getBoolean(block, position);
            }
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            if (!present) {
                rowPages[column] = null;
                return;
            }
            rowPages[column] = OutputPageBuilder.COMPUTED;
            rowPositions[column] = computed.getPositionCount();
            BooleanType.BOOLEAN.writeBoolean(computed, value);
        }
    }

    /** sum and product over the numeric types; nulls are skipped. */
    private static final class Arithmetic
            implements FieldAggregator
    {
        private final Type type;
        private final int channel;
        private final boolean product;
        private final String context;
        private boolean present;
        private long longValue;
        private double doubleValue;
        private BigDecimal decimalValue;

        private Arithmetic(Type type, int channel, boolean product, String context)
        {
            this.type = type;
            this.channel = channel;
            this.product = product;
            this.context = context;
        }

        @Override
        public void reset()
        {
            present = false;
        }

        @Override
        public void set(Page page, int position)
        {
            Block block = page.getBlock(channel);
            present = !block.isNull(position);
            if (present) {
                load(block, position);
            }
        }

        @Override
        public void add(Page page, int position)
        {
            Block block = page.getBlock(channel);
            if (block.isNull(position)) {
                return;
            }
            if (!present) {
                load(block, position);
                present = true;
                return;
            }
            switch (type) {
                case DoubleType _ -> doubleValue = product ? doubleValue * DoubleType.DOUBLE.getDouble(block, position) : doubleValue + DoubleType.DOUBLE.getDouble(block, position);
                case RealType _ -> {
                    float input = RealType.REAL.getFloat(block, position);
                    doubleValue = product ? (float) doubleValue * input : (float) doubleValue + input;
                }
                case DecimalType decimal -> decimalValue = fitDecimal(product
                        ? decimalValue.multiply(decimal(block, position)).setScale(decimal.getScale(), RoundingMode.HALF_UP)
                        : decimalValue.add(decimal(block, position)), decimal);
                default -> {
                    long input = type.getLong(block, position);
                    longValue = product ? multiplyExact(longValue, input) : wrap(longValue + input);
                }
            }
        }

        @Override
        public void addOlder(Page page, int position)
        {
            add(page, position);
        }

        @Override
        public void retract(Page page, int position)
        {
            Block block = page.getBlock(channel);
            if (product) {
                // a retraction divides; with a null on either side the accumulator stays
                if (block.isNull(position) || !present) {
                    return;
                }
                switch (type) {
                    case DoubleType _ -> doubleValue = doubleValue / DoubleType.DOUBLE.getDouble(block, position);
                    case RealType _ -> doubleValue = (float) doubleValue / RealType.REAL.getFloat(block, position);
                    case DecimalType decimal -> {
                        BigDecimal divisor = decimal(block, position);
                        if (divisor.signum() == 0) {
                            throw new TrinoException(PAIMON_MERGE_ERROR, "%s: decimal division by zero: %s / %s".formatted(context, decimalValue, divisor));
                        }
                        try {
                            decimalValue = fitDecimal(decimalValue.divide(divisor).setScale(decimal.getScale(), RoundingMode.HALF_UP), decimal);
                        }
                        catch (ArithmeticException e) {
                            throw new TrinoException(PAIMON_MERGE_ERROR, "%s: decimal %s / %s has no finite decimal expansion".formatted(context, decimalValue, divisor), e);
                        }
                    }
                    default -> longValue = divideExact(longValue, type.getLong(block, position));
                }
                return;
            }
            // sum: subtract; with no accumulator the negated input
            if (block.isNull(position)) {
                return;
            }
            if (!present) {
                load(block, position);
                present = true;
                switch (type) {
                    case DoubleType _, RealType _ -> doubleValue = -doubleValue;
                    case DecimalType decimal -> decimalValue = fitDecimal(decimalValue.negate(), decimal);
                    default -> longValue = wrap(-longValue);
                }
                return;
            }
            switch (type) {
                case DoubleType _ -> doubleValue = doubleValue - DoubleType.DOUBLE.getDouble(block, position);
                case RealType _ -> doubleValue = (float) doubleValue - RealType.REAL.getFloat(block, position);
                case DecimalType decimal -> decimalValue = fitDecimal(decimalValue.subtract(decimal(block, position)), decimal);
                default -> longValue = wrap(longValue - type.getLong(block, position));
            }
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            if (!present || (type instanceof DecimalType && decimalValue == null)) {
                rowPages[column] = null;
                return;
            }
            rowPages[column] = OutputPageBuilder.COMPUTED;
            rowPositions[column] = computed.getPositionCount();
            switch (type) {
                case DoubleType _ -> DoubleType.DOUBLE.writeDouble(computed, doubleValue);
                case RealType _ -> RealType.REAL.writeLong(computed, floatToRawIntBits((float) doubleValue));
                case DecimalType decimal -> {
                    if (decimal.isShort()) {
                        decimal.writeLong(computed, decimalValue.unscaledValue().longValueExact());
                    }
                    else {
                        decimal.writeObject(computed, Int128.valueOf(decimalValue.unscaledValue()));
                    }
                }
                default -> type.writeLong(computed, longValue);
            }
        }

        private void load(Block block, int position)
        {
            switch (type) {
                case DoubleType _ -> doubleValue = DoubleType.DOUBLE.getDouble(block, position);
                case RealType _ -> doubleValue = intBitsToFloat((int) RealType.REAL.getLong(block, position));
                case DecimalType _ -> decimalValue = decimal(block, position);
                default -> longValue = type.getLong(block, position);
            }
        }

        private BigDecimal decimal(Block block, int position)
        {
            DecimalType decimal = (DecimalType) type;
            if (decimal.isShort()) {
                return BigDecimal.valueOf(decimal.getLong(block, position), decimal.getScale());
            }
            return new BigDecimal(((Int128) decimal.getObject(block, position)).toBigInteger(), decimal.getScale());
        }

        // a value that no longer fits the declared precision becomes NULL (and stays NULL)
        private static BigDecimal fitDecimal(BigDecimal value, DecimalType decimal)
        {
            if (value == null || value.precision() - value.scale() > decimal.getPrecision() - decimal.getScale()) {
                return null;
            }
            return value;
        }

        // Paimon 1.x sums wrap around at the width of the column's type
        private long wrap(long value)
        {
            return switch (type) {
                case TinyintType _ -> (byte) value;
                case SmallintType _ -> (short) value;
                case IntegerType _ -> (int) value;
                default -> value;
            };
        }

        private long multiplyExact(long left, long right)
        {
            long result;
            try {
                result = Math.multiplyExact(left, right);
            }
            catch (ArithmeticException e) {
                throw overflow(left, "*", right);
            }
            if (wrap(result) != result) {
                throw overflow(left, "*", right);
            }
            return result;
        }

        private long divideExact(long dividend, long divisor)
        {
            if (divisor == 0) {
                throw new TrinoException(PAIMON_MERGE_ERROR, "%s: %s division by zero: %s / %s".formatted(context, typeName(), dividend, divisor));
            }
            long result = dividend / divisor;
            if (wrap(result) != result || (dividend == Long.MIN_VALUE && divisor == -1)) {
                throw overflow(dividend, "/", divisor);
            }
            return result;
        }

        private TrinoException overflow(long left, String operator, long right)
        {
            return new TrinoException(PAIMON_MERGE_ERROR, "%s: %s overflow: %s %s %s".formatted(context, typeName(), left, operator, right));
        }

        private String typeName()
        {
            return type.getDisplayName();
        }
    }

    /**
     * listagg as in Paimon 1.4: strings joined with the delimiter; nulls and empty inputs add nothing (an empty
     * accumulator gives way to the next input). With {@code fields.<f>.distinct} the input is split at the
     * delimiter and only tokens not yet in the accumulator are appended. Cannot retract.
     */
    private static final class ListAgg
            implements FieldAggregator
    {
        private final int channel;
        private final Slice delimiter;
        private final boolean distinct;
        private final String context;
        private Slice value;

        private ListAgg(int channel, Slice delimiter, boolean distinct, String context)
        {
            this.channel = channel;
            this.delimiter = delimiter;
            this.distinct = distinct;
            this.context = context;
        }

        @Override
        public void reset()
        {
            value = null;
        }

        @Override
        public void add(Page page, int position)
        {
            value = concat(value, input(page, position));
        }

        @Override
        public void addOlder(Page page, int position)
        {
            value = concat(input(page, position), value);
        }

        @Override
        public void retract(Page page, int position)
        {
            throw retractUnsupported(context, "listagg");
        }

        @Override
        public void set(Page page, int position)
        {
            value = input(page, position);
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            if (value == null) {
                rowPages[column] = null;
                return;
            }
            rowPages[column] = OutputPageBuilder.COMPUTED;
            rowPositions[column] = computed.getPositionCount();
            VarcharType.VARCHAR.writeSlice(computed, value);
        }

        private Slice input(Page page, int position)
        {
            Block block = page.getBlock(channel);
            return block.isNull(position) ? null : VarcharType.VARCHAR.getSlice(block, position);
        }

        private Slice concat(Slice accumulator, Slice input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            if (input.length() == 0) {
                return accumulator;
            }
            if (accumulator.length() == 0) {
                return input;
            }
            DynamicSliceOutput output = new DynamicSliceOutput(accumulator.length() + delimiter.length() + input.length());
            output.writeBytes(accumulator);
            if (!distinct) {
                output.writeBytes(delimiter);
                output.writeBytes(input);
                return output.slice();
            }
            Set<Slice> tokens = new HashSet<>(tokens(accumulator));
            for (Slice token : tokens(input)) {
                if (token.length() > 0 && tokens.add(token)) {
                    output.writeBytes(delimiter);
                    output.writeBytes(token);
                }
            }
            return output.slice();
        }

        // the pieces between delimiters, empty ones included
        private List<Slice> tokens(Slice text)
        {
            if (delimiter.length() == 0) {
                return List.of(text);
            }
            List<Slice> tokens = new ArrayList<>();
            int start = 0;
            while (true) {
                int found = text.indexOf(delimiter, start);
                if (found < 0) {
                    tokens.add(text.slice(start, text.length() - start));
                    return tokens;
                }
                tokens.add(text.slice(start, found - start));
                start = found + delimiter.length();
            }
        }
    }

    private static final class IgnoreRetract
            implements FieldAggregator
    {
        private final FieldAggregator delegate;

        private IgnoreRetract(FieldAggregator delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public void reset()
        {
            delegate.reset();
        }

        @Override
        public void add(Page page, int position)
        {
            delegate.add(page, position);
        }

        @Override
        public void addOlder(Page page, int position)
        {
            delegate.addOlder(page, position);
        }

        @Override
        public void retract(Page page, int position) {}

        @Override
        public void set(Page page, int position)
        {
            delegate.set(page, position);
        }

        @Override
        public void result(Page[] rowPages, int[] rowPositions, int column, BlockBuilder computed)
        {
            delegate.result(rowPages, rowPositions, column, computed);
        }
    }
}
