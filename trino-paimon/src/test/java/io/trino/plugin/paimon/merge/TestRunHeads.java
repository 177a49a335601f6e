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
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DecimalType.createDecimalType;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.spi.type.VarcharType.createVarcharType;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The cached heads of the merge order exactly as {@link RecordComparator} orders the records on their pages, for each
 * key shape that is compared on raw values; and, independently of both, as Paimon orders such keys: nulls first,
 * signed numbers, strings by their UTF-8 bytes unsigned (code point order, not Java's UTF-16 order).
 */
final class TestRunHeads
{
    private static final int POSITIONS = 48;

    @Test
    void specialisedKeysOrderAsTheGenericComparator()
    {
        Random random = new Random(15);
        List<Type> types = List.of(BIGINT, INTEGER, SMALLINT, TINYINT, DATE, createDecimalType(10, 2), TIMESTAMP_MICROS, VARCHAR, createVarcharType(3), VARBINARY);
        for (Type type : types) {
            for (boolean userSequence : new boolean[] {false, true}) {
                for (boolean descending : new boolean[] {false, true}) {
                    if (descending && !userSequence) {
                        continue;
                    }
                    assertSameOrderAsGeneric(type, keyPool(type, random), userSequence, descending, random);
                }
            }
        }
    }

    @Test
    void compositeKeysOfIntegersOrderAsTheGenericComparator()
    {
        Random random = new Random(17);
        List<Type> keyTypes = List.of(BIGINT, INTEGER, DATE);
        assertThat(RunHeads.KeyShape.of(keyTypes)).isEqualTo(RunHeads.KeyShape.LONGS);
        KeyValueLayout layout = new KeyValueLayout(keyTypes.size(), new int[0], false, new int[0]);
        RecordComparator comparator = new RecordComparator(layout, keyTypes, List.of());
        // few distinct values per column, nulls among them, so that keys tie on leading columns and on whole keys
        Page left = randomCompositePage(keyTypes, random);
        Page right = randomCompositePage(keyTypes, random);
        RunHeads heads = new RunHeads(2, comparator, layout);
        assertThat(heads.shape()).isEqualTo(RunHeads.KeyShape.LONGS);
        int ties = 0;
        for (int leftPosition = 0; leftPosition < POSITIONS; leftPosition++) {
            heads.load(0, left, leftPosition, 0);
            for (int rightPosition = 0; rightPosition < POSITIONS; rightPosition++) {
                heads.load(1, right, rightPosition, 0);
                heads.rememberKey(0);
                int expected = comparator.compareKeys(left, leftPosition, right, rightPosition);
                ties += expected == 0 ? 1 : 0;
                assertThat(Integer.signum(heads.compareKeys(0, 1))).as("keys at %s and %s", leftPosition, rightPosition).isEqualTo(Integer.signum(expected));
                assertThat(Integer.signum(heads.compare(0, 1))).isEqualTo(Integer.signum(comparator.compare(left, leftPosition, right, rightPosition)));
                assertThat(Integer.signum(heads.compareKeys(1, heads.keySlot()))).isEqualTo(-Integer.signum(expected));
            }
        }
        assertThat(ties).isPositive();
    }

    static Page randomCompositePage(List<Type> keyTypes, Random random)
    {
        return randomCompositePage(keyTypes, true, random);
    }

    // keys of few distinct values per column, nulls among them where asked for
    static Page randomCompositePage(List<Type> keyTypes, boolean withNulls, Random random)
    {
        Block[] blocks = new Block[keyTypes.size() + 2];
        for (int column = 0; column < keyTypes.size(); column++) {
            BlockBuilder builder = keyTypes.get(column).createBlockBuilder(null, POSITIONS);
            for (int position = 0; position < POSITIONS; position++) {
                int value = random.nextInt(withNulls ? 4 : 3);
                if (value == 3) {
                    builder.appendNull();
                }
                else {
                    keyTypes.get(column).writeLong(builder, value - 1);
                }
            }
            blocks[column] = builder.build();
        }
        BlockBuilder sequences = BIGINT.createBlockBuilder(null, POSITIONS);
        BlockBuilder kinds = TINYINT.createBlockBuilder(null, POSITIONS);
        for (int position = 0; position < POSITIONS; position++) {
            BIGINT.writeLong(sequences, random.nextInt(3));
            TINYINT.writeLong(kinds, KeyValueLayout.INSERT);
        }
        blocks[keyTypes.size()] = sequences.build();
        blocks[keyTypes.size() + 1] = kinds.build();
        return new Page(blocks);
    }

    @Test
    void compositeAndOtherKeysKeepTheGenericPath()
    {
        assertThat(RunHeads.KeyShape.of(List.of(BIGINT, VARCHAR))).isEqualTo(RunHeads.KeyShape.GENERIC);
        assertThat(RunHeads.KeyShape.of(List.of(DOUBLE))).isEqualTo(RunHeads.KeyShape.GENERIC);
        assertThat(RunHeads.KeyShape.of(List.of(createDecimalType(30, 2)))).isEqualTo(RunHeads.KeyShape.GENERIC);
        Random random = new Random(16);
        assertSameOrderAsGeneric(DOUBLE, List.of(-1.5, 0.0, 2.25, Double.NaN, Double.NEGATIVE_INFINITY), true, false, random);
    }

    @Test
    void bigintKeysOrderSignedWithNullsFirst()
    {
        List<Object> keys = Arrays.asList(Long.MAX_VALUE, 0L, null, -1L, Long.MIN_VALUE, 1L);
        assertThat(sortByHeads(BIGINT, keys)).containsExactly(null, Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE);
    }

    @Test
    void varcharKeysOrderByUtf8BytesUnsigned()
    {
        // U+1F600 is a surrogate pair in Java (0xD83D...), below U+FFFD in UTF-16 but above it in UTF-8 (F0 > EF)
        List<Object> keys = Arrays.asList("\uD83D\uDE00", "z", "", "\uFFFD", null, "\u00E9", "a", "ab", "\u007F", "\u0080");
        List<Object> expected = new ArrayList<>();
        expected.add(null);
        keys.stream()
                .filter(key -> key != null)
                .map(String.class::cast)
                .sorted(Comparator.comparing(key -> key.codePoints().toArray(), Arrays::compare))
                .forEach(expected::add);
        assertThat(expected).containsSubsequence("\uFFFD", "\uD83D\uDE00");
        assertThat(sortByHeads(VARCHAR, keys)).containsExactlyElementsOf(expected);
    }

    // every pair of positions of random pages, once with plain blocks and once with dictionary-encoded keys
    private static void assertSameOrderAsGeneric(Type keyType, List<Object> pool, boolean userSequence, boolean descending, Random random)
    {
        KeyValueLayout layout = new KeyValueLayout(1, userSequence ? new int[] {3} : new int[0], descending, new int[0]);
        RecordComparator comparator = new RecordComparator(layout, List.of(keyType), userSequence ? List.of(BIGINT) : List.of());
        for (boolean dictionary : new boolean[] {false, true}) {
            Page left = randomPage(keyType, pool, dictionary, random);
            Page right = randomPage(keyType, pool, dictionary, random);
            RunHeads heads = new RunHeads(2, comparator, layout);
            assertThat(heads.shape()).isEqualTo(RunHeads.KeyShape.of(List.of(keyType)));
            for (int leftPosition = 0; leftPosition < POSITIONS; leftPosition++) {
                heads.load(0, left, leftPosition, 0);
                for (int rightPosition = 0; rightPosition < POSITIONS; rightPosition++) {
                    heads.load(1, right, rightPosition, 0);
                    heads.rememberKey(0);
                    int[] actual = {heads.compareKeys(0, 1), heads.compare(0, 1), heads.compareKeys(1, heads.keySlot())};
                    int[] expected = {
                            comparator.compareKeys(left, leftPosition, right, rightPosition),
                            comparator.compare(left, leftPosition, right, rightPosition),
                            comparator.compareKeys(right, rightPosition, left, leftPosition)};
                    for (int i = 0; i < actual.length; i++) {
                        if (Integer.signum(actual[i]) != Integer.signum(expected[i])) {
                            fail("%s keys at %s and %s (dictionary %s, user sequence %s, descending %s): comparison %s is %s, expected %s".formatted(
                                    keyType, leftPosition, rightPosition, dictionary, userSequence, descending, i, actual[i], expected[i]));
                        }
                    }
                }
            }
        }
    }

    // the keys sorted by the order of the heads they load into
    private static List<Object> sortByHeads(Type keyType, List<Object> keys)
    {
        KeyValueLayout layout = new KeyValueLayout(1, new int[0], false, new int[0]);
        RunHeads heads = new RunHeads(2, new RecordComparator(layout, List.of(keyType), List.of()), layout);
        assertThat(heads.shape()).isNotEqualTo(RunHeads.KeyShape.GENERIC);
        BlockBuilder keyBuilder = keyType.createBlockBuilder(null, keys.size());
        BlockBuilder sequences = BIGINT.createBlockBuilder(null, keys.size());
        BlockBuilder kinds = TINYINT.createBlockBuilder(null, keys.size());
        for (Object key : keys) {
            write(keyType, keyBuilder, key);
            BIGINT.writeLong(sequences, 1);
            TINYINT.writeLong(kinds, KeyValueLayout.INSERT);
        }
        Page page = new Page(keyBuilder.build(), sequences.build(), kinds.build());
        List<Integer> positions = new ArrayList<>();
        for (int position = 0; position < keys.size(); position++) {
            positions.add(position);
        }
        positions.sort((left, right) -> {
            heads.load(0, page, left, 0);
            heads.load(1, page, right, 0);
            return heads.compareKeys(0, 1);
        });
        return positions.stream().map(keys::get).toList();
    }

    private static Page randomPage(Type keyType, List<Object> pool, boolean dictionary, Random random)
    {
        BlockBuilder keys = keyType.createBlockBuilder(null, POSITIONS);
        BlockBuilder sequences = BIGINT.createBlockBuilder(null, POSITIONS);
        BlockBuilder kinds = TINYINT.createBlockBuilder(null, POSITIONS);
        BlockBuilder userSequences = BIGINT.createBlockBuilder(null, POSITIONS);
        for (int position = 0; position < POSITIONS; position++) {
            write(keyType, keys, random.nextInt(10) == 0 ? null : pool.get(random.nextInt(pool.size())));
            BIGINT.writeLong(sequences, random.nextInt(4));
            TINYINT.writeLong(kinds, random.nextInt(4));
            if (random.nextInt(5) == 0) {
                userSequences.appendNull();
            }
            else {
                BIGINT.writeLong(userSequences, random.nextInt(3));
            }
        }
        Block keyBlock = keys.build();
        if (dictionary) {
            int[] ids = random.ints(POSITIONS, 0, POSITIONS).toArray();
            keyBlock = DictionaryBlock.create(POSITIONS, keyBlock, ids);
        }
        return new Page(keyBlock, sequences.build(), kinds.build(), userSequences.build());
    }

    // edge values of the type and random ones; few enough that equal keys are common
    private static List<Object> keyPool(Type type, Random random)
    {
        List<Object> pool = new ArrayList<>();
        if (type == BIGINT || type == TIMESTAMP_MICROS) {
            pool.addAll(List.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1, Long.MAX_VALUE));
            random.longs(8).forEach(pool::add);
        }
        else if (type == INTEGER || type == DATE) {
            pool.addAll(List.of((long) Integer.MIN_VALUE, -1L, 0L, 1L, (long) Integer.MAX_VALUE));
            random.ints(8).forEach(value -> pool.add((long) value));
        }
        else if (type == SMALLINT) {
            pool.addAll(List.of((long) Short.MIN_VALUE, -1L, 0L, (long) Short.MAX_VALUE));
            random.ints(8, Short.MIN_VALUE, Short.MAX_VALUE).forEach(value -> pool.add((long) value));
        }
        else if (type == TINYINT) {
            pool.addAll(List.of((long) Byte.MIN_VALUE, -1L, 0L, (long) Byte.MAX_VALUE));
            random.ints(8, Byte.MIN_VALUE, Byte.MAX_VALUE).forEach(value -> pool.add((long) value));
        }
        else if (type.equals(createDecimalType(10, 2))) {
            pool.addAll(List.of(-9_999_999_999L, -1L, 0L, 1L, 9_999_999_999L));
            random.longs(8, -9_999_999_999L, 9_999_999_999L).forEach(pool::add);
        }
        else {
            pool.addAll(List.of("", "a", "ab", "abc", "b", "z", "\u007F", "\u0080", "\u00E9", "\uFFFD", "\uD83D\uDE00"));
            for (int i = 0; i < 8; i++) {
                StringBuilder value = new StringBuilder();
                int length = random.nextInt(4);
                for (int j = 0; j < length; j++) {
                    int codePoint = random.nextBoolean() ? 'a' + random.nextInt(3) : random.nextInt(0x1F000);
                    if (Character.isSurrogate((char) codePoint)) {
                        codePoint = 0x1F600;
                    }
                    value.appendCodePoint(codePoint);
                }
                pool.add(value.toString());
            }
            if (type.equals(createVarcharType(3))) {
                pool.removeIf(value -> ((String) value).codePointCount(0, ((String) value).length()) > 3);
            }
        }
        return pool;
    }

    private static void write(Type type, BlockBuilder builder, Object value)
    {
        switch (value) {
            case null -> builder.appendNull();
            case Long number -> type.writeLong(builder, number);
            case Double number -> type.writeDouble(builder, number);
            case String text when type == VARBINARY -> type.writeSlice(builder, Slices.wrappedBuffer(text.getBytes(UTF_8)));
            case String text -> type.writeSlice(builder, utf8Slice(text));
            default -> throw new IllegalArgumentException("unexpected key " + value);
        }
    }
}
