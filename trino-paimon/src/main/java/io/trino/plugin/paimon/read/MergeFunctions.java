package io.trino.plugin.paimon.read;

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.merge.AggregationMergeFunction;
import io.trino.plugin.paimon.merge.FieldAggregator;
import io.trino.plugin.paimon.merge.FieldAggregators;
import io.trino.plugin.paimon.merge.MergeFunction;
import io.trino.plugin.paimon.merge.PartialUpdateMergeFunction;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;

/**
 * The merge functions of the partial-update and aggregation engines for one read: which function folds each value
 * column, and the table options checked the way Paimon checks them when it loads a table (merge-semantics §5.3,
 * §7.1). The option checks run when the table is read; the aggregate functions themselves are created, and their
 * column types checked, only when a key needs merging, as in Paimon.
 */
public final class MergeFunctions
{
    private static final String LAST_NON_NULL_VALUE = "last_non_null_value";

    private MergeFunctions() {}

    /**
     * Fields the merge needs besides the requested columns: the sequence fields, and the sequence fields of every
     * partial-update sequence group (all of them, because a group's -D may remove the whole row). Group fields
     * missing from the schema are left to the checks of {@link #partialUpdate}.
     */
    public static List<String> extraValueFields(TableSchema schema, TableOptions options)
    {
        Set<String> fields = new LinkedHashSet<>(options.sequenceFields());
        if (options.mergeEngine() == TableOptions.MergeEngine.PARTIAL_UPDATE) {
            options.sequenceGroups().keySet().forEach(sequence -> sequence.stream()
                    .filter(field -> schema.field(field).isPresent())
                    .forEach(fields::add));
        }
        return List.copyOf(fields);
    }

    /**
     * @param valueColumns the columns read as values: the requested ones first, then {@link #extraValueFields}
     * @param outputTypes the types of the requested columns
     * @param firstValueChannel the channel of the first value column in the merged pages
     */
    public static Supplier<MergeFunction> partialUpdate(String tableName, TableSchema schema, TableOptions options, List<ReadColumn> valueColumns, List<Type> outputTypes, int firstValueChannel)
    {
        checkFieldOptions(tableName, schema, options);
        checkPartialUpdateOptions(tableName, schema, options);
        List<String> fieldNames = schema.fields().stream().map(DataField::name).toList();

        // the groups, each field in at most one of them (checked above)
        List<List<String>> groupSequenceFields = new ArrayList<>();
        Map<String, Integer> groupOfField = new HashMap<>();
        Set<String> sequenceFields = new LinkedHashSet<>();
        options.sequenceGroups().forEach((sequence, members) -> {
            int group = groupSequenceFields.size();
            groupSequenceFields.add(sequence);
            concat(members, sequence).forEach(field -> groupOfField.putIfAbsent(field, group));
            sequenceFields.addAll(sequence);
        });

        // the value columns in table column order, the order in which Paimon visits them
        List<String> names = valueColumns.stream().map(column -> fieldName(schema, column.fieldId())).toList();
        int[] order = IntStream.range(0, valueColumns.size()).boxed()
                .sorted(Comparator.comparingInt(index -> fieldNames.indexOf(names.get(index))))
                .mapToInt(Integer::intValue)
                .toArray();
        int[] columnOfValue = new int[valueColumns.size()];
        List<PartialUpdateMergeFunction.Column> columns = new ArrayList<>();
        for (int column = 0; column < order.length; column++) {
            int value = order[column];
            columnOfValue[value] = column;
            String name = names.get(value);
            int channel = firstValueChannel + value;
            int group = groupOfField.getOrDefault(name, -1);
            boolean sequenceField = sequenceFields.contains(name);
            Optional<Supplier<FieldAggregator>> aggregator = Optional.empty();
            if (group >= 0 && !sequenceField) {
                Type type = valueColumns.get(value).type();
                String context = "Table %s column '%s'".formatted(tableName, name);
                Optional<String> function = schema.primaryKeys().contains(name)
                        ? Optional.of("primary-key")
                        : options.aggregateFunction(name).or(options::defaultAggregateFunction);
                aggregator = function.map(functionName -> () -> FieldAggregators.create(functionName, options.ignoreRetract(name), type, channel, context, suffix -> options.fieldOption(name, suffix)));
            }
            columns.add(new PartialUpdateMergeFunction.Column(channel, group, sequenceField, aggregator));
        }
        List<PartialUpdateMergeFunction.SequenceGroup> groups = new ArrayList<>();
        for (List<String> sequence : groupSequenceFields) {
            int[] sequenceColumns = sequence.stream()
                    .mapToInt(field -> columnOfValue[indexOf(names, field)])
                    .toArray();
            List<Type> types = sequence.stream().map(field -> valueColumns.get(indexOf(names, field)).type()).toList();
            boolean removesRow = sequence.stream().anyMatch(options.partialUpdateRemoveRecordOnSequenceGroup()::contains);
            groups.add(new PartialUpdateMergeFunction.SequenceGroup(sequenceColumns, types, removesRow));
        }
        int[] outputColumns = IntStream.range(0, outputTypes.size()).map(output -> columnOfValue[output]).toArray();
        return () -> new PartialUpdateMergeFunction(tableName, columns, groups, outputColumns, outputTypes, options.ignoreDelete(), options.partialUpdateRemoveRecordOnDelete());
    }

    /**
     * Checks the merge-engine options of a table the way Paimon checks them when it creates or loads a table
     * (merge-semantics §5.3, §7.1), without building a merge function: the fields that per-field options name
     * exist, sequence fields carry no aggregate function, partial-update groups and their conflicts, and the
     * aggregation engine's retraction conflicts.
     *
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the table
     */
    public static void checkOptions(String tableName, TableSchema schema, TableOptions options)
    {
        checkFieldOptions(tableName, schema, options);
        switch (options.mergeEngine()) {
            case PARTIAL_UPDATE -> checkPartialUpdateOptions(tableName, schema, options);
            case AGGREGATION -> schema.fieldNames().forEach(name -> checkAggregationRetract(tableName, options, name));
            case DEDUPLICATE, FIRST_ROW -> {}
        }
    }

    /**
     * Creates the aggregate function of every value column of a partial-update or aggregation table once, with the
     * column's type. Paimon looks up each function by name when it creates the table and checks the type at the first
     * merge; a new table is checked for both, so that a function that cannot fold its column fails at CREATE TABLE.
     *
     * @param columnType the Trino type of a column, by name
     */
    public static void checkAggregateFunctions(String tableName, TableSchema schema, TableOptions options, Function<String, Type> columnType)
    {
        if (options.mergeEngine() != TableOptions.MergeEngine.PARTIAL_UPDATE && options.mergeEngine() != TableOptions.MergeEngine.AGGREGATION) {
            return;
        }
        for (String name : schema.fieldNames()) {
            Optional<String> function = options.aggregateFunction(name).or(options::defaultAggregateFunction);
            boolean sequenceField = options.sequenceFields().contains(name) || options.sequenceGroups().keySet().stream().anyMatch(sequence -> sequence.contains(name));
            if (function.isEmpty() || schema.primaryKeys().contains(name) || sequenceField) {
                continue;
            }
            FieldAggregators.create(function.get(), options.ignoreRetract(name), columnType.apply(name), 0, "Table %s column '%s'".formatted(tableName, name), suffix -> options.fieldOption(name, suffix));
        }
    }

    private static void checkPartialUpdateOptions(String tableName, TableSchema schema, TableOptions options)
    {
        List<String> fieldNames = schema.fieldNames();
        List<List<String>> groupSequenceFields = new ArrayList<>();
        Map<String, Integer> groupOfField = new HashMap<>();
        Set<String> sequenceFields = new LinkedHashSet<>();
        options.sequenceGroups().forEach((sequence, members) -> {
            int group = groupSequenceFields.size();
            groupSequenceFields.add(sequence);
            for (String field : concat(members, sequence)) {
                if (!fieldNames.contains(field)) {
                    throw invalid(tableName, "Field %s can not be found in table schema.".formatted(field));
                }
                Integer other = groupOfField.putIfAbsent(field, group);
                if (other != null && other != group) {
                    throw invalid(tableName, "Field %s is defined repeatedly by multiple groups: [%s, %s].".formatted(field, groupSequenceFields.get(other), sequence));
                }
            }
            sequenceFields.addAll(sequence);
        });
        List<String> aggregatedSequenceFields = sequenceFields.stream().filter(field -> options.aggregateFunction(field).isPresent()).toList();
        if (!aggregatedSequenceFields.isEmpty()) {
            throw invalid(tableName, "Should not defined aggregation function on sequence group: %s".formatted(aggregatedSequenceFields));
        }
        for (String field : fieldNames) {
            if (schema.primaryKeys().contains(field) || sequenceFields.contains(field) || groupOfField.containsKey(field)) {
                continue;
            }
            Optional<String> function = options.aggregateFunction(field).or(options::defaultAggregateFunction);
            if (function.isPresent() && !function.get().equals(LAST_NON_NULL_VALUE)) {
                throw invalid(tableName, "Must use sequence group for aggregation functions but not found for field %s.".formatted(field));
            }
        }
        boolean removeOnSequenceGroup = !options.partialUpdateRemoveRecordOnSequenceGroup().isEmpty();
        if (options.ignoreDelete() && options.partialUpdateRemoveRecordOnDelete()) {
            throw invalid(tableName, "ignore-delete and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time.");
        }
        if (options.ignoreDelete() && removeOnSequenceGroup) {
            throw invalid(tableName, "ignore-delete and partial-update.remove-record-on-sequence-group have conflicting behavior so should not be enabled at the same time.");
        }
        if (options.partialUpdateRemoveRecordOnDelete() && !groupSequenceFields.isEmpty()) {
            throw invalid(tableName, "sequence-group and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time.");
        }
        if (!sequenceFields.containsAll(options.partialUpdateRemoveRecordOnSequenceGroup())) {
            throw invalid(tableName, "field '%s' defined in 'partial-update.remove-record-on-sequence-group' option must be part of sequence groups"
                    .formatted(String.join(",", options.partialUpdateRemoveRecordOnSequenceGroup())));
        }
    }

    /**
     * Each requested column folds with its function: keys take the input, sequence fields the last value, others
     * their configured function, else the default one, else last_non_null_value.
     *
     * @param names the requested columns' names
     * @param outputChannels for each requested column, its channel in the merged pages
     */
    public static Supplier<MergeFunction> aggregation(String tableName, TableSchema schema, TableOptions options, List<String> names, List<Type> types, int[] outputChannels)
    {
        checkFieldOptions(tableName, schema, options);
        List<String> functions = new ArrayList<>();
        List<Boolean> ignoreRetract = new ArrayList<>();
        for (String name : names) {
            String function;
            if (schema.primaryKeys().contains(name)) {
                function = "primary-key";
            }
            else if (options.sequenceFields().contains(name)) {
                function = "last_value";
            }
            else {
                function = options.aggregateFunction(name).or(options::defaultAggregateFunction).orElse(LAST_NON_NULL_VALUE);
            }
            checkAggregationRetract(tableName, options, name);
            boolean ignore = options.ignoreRetract(name);
            functions.add(function);
            ignoreRetract.add(ignore);
        }
        return () -> {
            List<FieldAggregator> aggregators = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                aggregators.add(FieldAggregators.create(functions.get(i), ignoreRetract.get(i), types.get(i), outputChannels[i], "Table %s column '%s'".formatted(tableName, name),
                        suffix -> options.fieldOption(name, suffix)));
            }
            return new AggregationMergeFunction(aggregators, types, options.aggregationRemoveRecordOnDelete());
        };
    }

    private static void checkAggregationRetract(String tableName, TableOptions options, String name)
    {
        if (options.ignoreRetract(name) && options.aggregationRemoveRecordOnDelete()) {
            throw invalid(tableName, "Key: 'aggregation.remove-record-on-delete' , default: false (fallback keys: []) and fields.%s.ignore-retract have conflicting behavior so should not be enabled at the same time.".formatted(name));
        }
    }

    // what Paimon checks of the per-field options of any table: the fields they name exist, and sequence fields
    // have no aggregate function
    private static void checkFieldOptions(String tableName, TableSchema schema, TableOptions options)
    {
        for (String key : options.options().keySet()) {
            if (!key.startsWith("fields.")) {
                continue;
            }
            String fields = key.split("\\.", -1)[1];
            for (String field : fields.split(",", -1)) {
                if (!field.equals("default-aggregate-function") && schema.field(field).isEmpty()) {
                    throw invalid(tableName, "Field %s can not be found in table schema.".formatted(field));
                }
            }
        }
        for (String field : options.sequenceFields()) {
            if (options.aggregateFunction(field).isPresent()) {
                throw invalid(tableName, "Should not define aggregation on sequence field: '%s'.".formatted(field));
            }
        }
    }

    private static String fieldName(TableSchema schema, int fieldId)
    {
        return schema.fields().stream()
                .filter(field -> field.id() == fieldId)
                .map(DataField::name)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No field with id " + fieldId));
    }

    private static int indexOf(List<String> names, String name)
    {
        int index = names.indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("Field %s is not read".formatted(name));
        }
        return index;
    }

    private static List<String> concat(List<String> first, List<String> second)
    {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static TrinoException invalid(String tableName, String message)
    {
        return new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: %s".formatted(tableName, message));
    }
}
