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

import io.airlift.slice.Slices;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.MergeEngineOptions;
import io.trino.plugin.paimon.table.SchemaValidation;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.spi.Page;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import io.trino.spi.type.VarcharType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static io.trino.plugin.paimon.merge.TypeValues.objectValue;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;

/**
 * Runs a merge-semantics vector through the merge core on Trino pages, assembled as the page source assembles it
 * for a {@code SELECT *} of one bucket: the table's files cut into sections and sorted runs by
 * {@link IntervalPartition}; a section of one run passed through without its retract rows; a section of several
 * runs merged by {@link SortMergeReader} (its {@link LoserTree}) with the table's merge function into an
 * {@link OutputPageBuilder}. No query runner and no Paimon Java: the files are pages built from the vector's text.
 * <p>
 * Notation (merge-semantics §13): records {@code +I(1,a)}, {@code -U(..)}, {@code +U(..)}, {@code -D(..)} with the
 * table's values in column order, {@code N} for null, {@code 'x y'} for a quoted string, {@code T}/{@code F} for
 * booleans, {@code [..]} arrays, {@code {k:v,..}} maps, {@code (..)} rows. Commits are separated by {@code |} and
 * each becomes one file, level 0 unless prefixed with {@code L<n>:}; a record's sequence number is its place in the
 * text. A writer sorts a file by key and folds the records of one key that meet in one commit; here such records
 * go to consecutive files of the same level instead, which the merge folds the same way.
 */
public final class MergeVectorHarness
{
    private static final String TABLE_NAME = "vectors.t";
    private static final TypeMapping TYPE_MAPPING = new TypeMapping(new TypeOperators());
    // small, so that the merge fills and flushes the output more than once per vector
    private static final int OUTPUT_PAGE_ROWS = 2;

    private MergeVectorHarness() {}

    /**
     * @param columns {@code "name TYPE"} in table order (Paimon type syntax); the first is the primary key
     * @return the merged rows in vector notation, sorted
     */
    public static List<String> merge(List<String> columns, Map<String, String> options, String commits, boolean unorderedArrays)
    {
        TableSchema schema = schema(columns, options);
        TableOptions tableOptions = TableOptions.fromSchema(TABLE_NAME, schema);
        List<Type> types = schema.fields().stream().map(TYPE_MAPPING::toTrinoType).toList();
        List<String> names = schema.fieldNames();

        // channels: the key, sequence number, kind, then every column as a value (what SELECT * reads)
        List<Type> keyTypes = List.of(types.getFirst());
        int firstValueChannel = keyTypes.size() + 2;
        int[] sequenceChannels = tableOptions.sequenceFields().stream().mapToInt(field -> firstValueChannel + names.indexOf(field)).toArray();
        List<Type> sequenceTypes = tableOptions.sequenceFields().stream().map(field -> types.get(names.indexOf(field))).toList();
        int[] outputChannels = IntStream.range(0, types.size()).map(column -> firstValueChannel + column).toArray();
        KeyValueLayout layout = new KeyValueLayout(keyTypes.size(), sequenceChannels, tableOptions.sequenceFieldDescending(), outputChannels);
        RecordComparator comparator = new RecordComparator(layout, keyTypes, sequenceTypes);
        Supplier<MergeFunction> mergeFunctions = mergeFunctions(schema, tableOptions, types, layout);
        // as the page source: first-row is not lookup-wrapped
        boolean lookupMode = tableOptions.needsLookup() && tableOptions.mergeEngine() != MergeEngine.FIRST_ROW;

        List<Type> channelTypes = new ArrayList<>(keyTypes);
        channelTypes.add(BIGINT);
        channelTypes.add(TINYINT);
        channelTypes.addAll(types);
        List<VectorFile> files = files(channelTypes, types, commits);

        List<String> rows = new ArrayList<>();
        Comparator<VectorFile.Key> keyOrder = (left, right) -> comparator.compareKeys(left.page(), left.position(), right.page(), right.position());
        for (Section<VectorFile> section : IntervalPartition.partition(files, VectorFile::minKey, VectorFile::maxKey, keyOrder)) {
            if (section.runs().size() == 1) {
                // the page source's pass-through: a sorted run holds each key once, only its retract rows are dropped
                for (VectorFile file : section.runs().getFirst().files()) {
                    Page page = file.page();
                    for (int position = 0; position < page.getPositionCount(); position++) {
                        if (!KeyValueLayout.isRetract(TINYINT.getByte(page.getBlock(layout.kindChannel()), position))) {
                            addRow(rows, page.getColumns(outputChannels), position, types, unorderedArrays);
                        }
                    }
                }
                continue;
            }
            List<SortedRunCursor> runs = section.runs().stream().map(run -> new RunCursor(run.files())).map(SortedRunCursor.class::cast).toList();
            SortMergeReader merger = new SortMergeReader(runs, comparator, layout, mergeFunctions.get(), lookupMode);
            OutputPageBuilder output = new OutputPageBuilder(types, outputChannels, OUTPUT_PAGE_ROWS);
            while (!merger.isFinished() || !output.isEmpty()) {
                merger.mergeInto(output);
                if (!output.isEmpty() && (output.isFull() || merger.isFinished())) {
                    for (Page page : output.build()) {
                        for (int position = 0; position < page.getPositionCount(); position++) {
                            addRow(rows, page, position, types, unorderedArrays);
                        }
                    }
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    /**
     * The checks CREATE TABLE runs on a table with these columns (as {@link #merge}) and options: Paimon's schema
     * validation, then the merge engine's options with every column's aggregate function.
     */
    public static void validate(List<String> columns, Map<String, String> options)
    {
        SchemaValidation.validate(TABLE_NAME, schema(columns, options), (_, schema, tableOptions) ->
                MergeEngineOptions.checkNewTable(schema, tableOptions, name -> TYPE_MAPPING.toTrinoType(schema.field(name).orElseThrow())));
    }

    /**
     * The table's merge functions, as the page source provider builds them for a read of every column. The one place
     * the tests reach the merge-function factory.
     */
    static Supplier<MergeFunction> mergeFunctions(TableSchema schema, TableOptions options, List<Type> types, KeyValueLayout layout)
    {
        List<ValueColumn> valueColumns = IntStream.range(0, types.size())
                .mapToObj(column -> new ValueColumn(schema.fields().get(column).name(), types.get(column), layout.firstValueChannel() + column))
                .toList();
        return new MergeFunctionFactory(MergeEngineOptions.toSpec(schema, options), valueColumns, layout.outputChannels())::create;
    }

    private static TableSchema schema(List<String> columns, Map<String, String> options)
    {
        List<DataField> fields = new ArrayList<>();
        for (String column : columns) {
            int space = column.indexOf(' ');
            fields.add(new DataField(fields.size(), column.substring(0, space), DataTypeParser.parse(column.substring(space + 1))));
        }
        // Paimon makes primary-key columns NOT NULL; the key is never null here
        return new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, fields.size() - 1, List.of(), List.of(fields.getFirst().name()), options, Optional.empty(), 0);
    }

    private static void addRow(List<String> rows, Page page, int position, List<Type> types, boolean unorderedArrays)
    {
        List<Object> values = new ArrayList<>();
        for (int channel = 0; channel < types.size(); channel++) {
            values.add(objectValue(types.get(channel), page.getBlock(channel), position));
        }
        rows.add(RowText.row(types, values, unorderedArrays));
    }

    // the commits as files: each sorted by key (unsigned bytes for strings, as Paimon's writer sorts), a key at most once
    private static List<VectorFile> files(List<Type> channelTypes, List<Type> valueTypes, String commits)
    {
        List<VectorFile> files = new ArrayList<>();
        long sequence = 0;
        for (String commit : split(commits, '|')) {
            int level = 0;
            String records = commit.trim();
            if (records.matches("L\\d+:.*")) {
                level = Integer.parseInt(records.substring(1, records.indexOf(':')));
                records = records.substring(records.indexOf(':') + 1).trim();
            }
            List<List<Object>> pending = new ArrayList<>();
            for (String record : split(records, ',')) {
                record = record.trim();
                if (record.isEmpty()) {
                    continue;
                }
                List<Object> values = new ArrayList<>();
                List<String> fields = split(record.substring(3, record.length() - 1), ',');
                if (fields.size() != valueTypes.size()) {
                    throw new IllegalArgumentException("Record %s has %s values, the table %s columns".formatted(record, fields.size(), valueTypes.size()));
                }
                Object key = parse(valueTypes.getFirst(), fields.getFirst());
                values.add(key);
                values.add(++sequence);
                values.add(kind(record.substring(0, 2)));
                for (int i = 0; i < fields.size(); i++) {
                    values.add(parse(valueTypes.get(i), fields.get(i)));
                }
                // a key met again in this commit starts the next file
                if (pending.stream().anyMatch(other -> other.getFirst().equals(key))) {
                    files.add(VectorFile.of(channelTypes, level, pending));
                    pending = new ArrayList<>();
                }
                pending.add(values);
            }
            if (!pending.isEmpty()) {
                files.add(VectorFile.of(channelTypes, level, pending));
            }
        }
        return files;
    }

    private static byte kind(String text)
    {
        return switch (text) {
            case "+I" -> KeyValueLayout.INSERT;
            case "-U" -> KeyValueLayout.UPDATE_BEFORE;
            case "+U" -> KeyValueLayout.UPDATE_AFTER;
            case "-D" -> KeyValueLayout.DELETE;
            default -> throw new IllegalArgumentException("Unknown row kind: " + text);
        };
    }

    // a value in the notation, as the Java value Trino's getObjectValue gives back (or the native one for decimals)
    private static Object parse(Type type, String text)
    {
        text = text.trim();
        if (text.equals("N")) {
            return null;
        }
        return switch (type) {
            case ArrayType array -> {
                String inner = text.substring(1, text.length() - 1);
                yield inner.isBlank() ? List.of() : split(inner, ',').stream().map(element -> parse(array.getElementType(), element)).toList();
            }
            case MapType map -> {
                List<List<Object>> entries = new ArrayList<>();
                String inner = text.substring(1, text.length() - 1);
                if (!inner.isBlank()) {
                    for (String entry : split(inner, ',')) {
                        List<String> parts = split(entry, ':');
                        entries.add(Arrays.asList(parse(map.getKeyType(), parts.get(0)), parse(map.getValueType(), parts.get(1))));
                    }
                }
                yield entries;
            }
            case RowType row -> {
                List<String> fields = split(text.substring(1, text.length() - 1), ',');
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < fields.size(); i++) {
                    values.add(parse(row.getTypeParameters().get(i), fields.get(i)));
                }
                yield values;
            }
            case VarcharType _ -> text.startsWith("'") ? text.substring(1, text.length() - 1) : text;
            case BooleanType _ -> text.equals("T");
            case DecimalType decimal -> new BigDecimal(text).setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
            default -> type.getJavaType() == double.class ? (Object) Double.parseDouble(text) : (Object) Long.parseLong(text);
        };
    }

    @SuppressWarnings("unchecked")
    private static void write(Type type, BlockBuilder builder, Object value)
    {
        if (value == null) {
            builder.appendNull();
            return;
        }
        switch (type) {
            case ArrayType array -> ((ArrayBlockBuilder) builder).buildEntry(elements -> ((List<Object>) value).forEach(element -> write(array.getElementType(), elements, element)));
            case MapType map -> ((MapBlockBuilder) builder).buildEntry((keys, values) -> ((List<List<Object>>) value).forEach(entry -> {
                write(map.getKeyType(), keys, entry.get(0));
                write(map.getValueType(), values, entry.get(1));
            }));
            case RowType row -> ((RowBlockBuilder) builder).buildEntry(fields -> {
                for (int i = 0; i < fields.size(); i++) {
                    write(row.getTypeParameters().get(i), fields.get(i), ((List<Object>) value).get(i));
                }
            });
            case DecimalType decimal when decimal.isShort() -> decimal.writeLong(builder, ((BigDecimal) value).unscaledValue().longValueExact());
            case DecimalType decimal -> decimal.writeObject(builder, Int128.valueOf(((BigDecimal) value).unscaledValue()));
            case VarcharType varchar -> varchar.writeSlice(builder, Slices.utf8Slice((String) value));
            case BooleanType bool -> bool.writeBoolean(builder, (Boolean) value);
            default -> {
                if (type.getJavaType() == double.class) {
                    type.writeDouble(builder, (Double) value);
                }
                else {
                    type.writeLong(builder, ((Number) value).longValue());
                }
            }
        }
    }

    // splits at the separator outside brackets and quotes
    private static List<String> split(String text, char separator)
    {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            }
            else if (!quoted && (c == '(' || c == '[' || c == '{')) {
                depth++;
            }
            else if (!quoted && (c == ')' || c == ']' || c == '}')) {
                depth--;
            }
            else if (!quoted && depth == 0 && c == separator) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    // key order of the writer, independent of the comparator under test: numbers numerically, strings as unsigned UTF-8 bytes
    private static int compareKeys(Object left, Object right)
    {
        if (left instanceof String leftText) {
            return Arrays.compareUnsigned(leftText.getBytes(StandardCharsets.UTF_8), ((String) right).getBytes(StandardCharsets.UTF_8));
        }
        return Long.compare(((Number) left).longValue(), ((Number) right).longValue());
    }

    /** One data file of a vector: a page holding all its records in key order. */
    private record VectorFile(int level, Page page)
    {
        record Key(Page page, int position) {}

        static VectorFile of(List<Type> channelTypes, int level, List<List<Object>> records)
        {
            List<List<Object>> sorted = new ArrayList<>(records);
            sorted.sort((left, right) -> compareKeys(left.getFirst(), right.getFirst()));
            Block[] blocks = new Block[channelTypes.size()];
            for (int channel = 0; channel < blocks.length; channel++) {
                BlockBuilder builder = channelTypes.get(channel).createBlockBuilder(null, sorted.size());
                for (List<Object> record : sorted) {
                    write(channelTypes.get(channel), builder, record.get(channel));
                }
                blocks[channel] = builder.build();
            }
            return new VectorFile(level, new Page(blocks));
        }

        Key minKey()
        {
            return new Key(page, 0);
        }

        Key maxKey()
        {
            return new Key(page, page.getPositionCount() - 1);
        }
    }

    /** A sorted run of vector files, read record by record as the page source's run cursor reads data files. */
    private static final class RunCursor
            implements SortedRunCursor
    {
        private final List<VectorFile> files;
        private int file;
        private int position = -1;

        RunCursor(List<VectorFile> files)
        {
            this.files = List.copyOf(files);
        }

        @Override
        public boolean advance()
        {
            position++;
            while (file < files.size() && position >= files.get(file).page().getPositionCount()) {
                file++;
                position = 0;
            }
            return file < files.size();
        }

        @Override
        public Page page()
        {
            return files.get(file).page();
        }

        @Override
        public int position()
        {
            return position;
        }

        @Override
        public int level()
        {
            return files.get(file).level();
        }

        @Override
        public long memoryUsage()
        {
            return 0;
        }

        @Override
        public void close() {}
    }
}
