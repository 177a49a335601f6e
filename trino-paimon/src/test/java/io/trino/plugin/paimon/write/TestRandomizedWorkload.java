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

import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.Fsck;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Randomized differential workload (reliability.md T21): seeded random INSERT, UPDATE, DELETE and MERGE statements
 * over a few thousand keys of partitioned primary-key tables, on each merge engine with the statements it takes, with
 * fixed and dynamic buckets and nullable value columns. A model of each engine written here with plain maps (not the
 * connector's merge code) says what the table holds; Trino's rows are compared with it every
 * {@value #TRINO_CHECK_INTERVAL} statements, Paimon Java 1.4.2's rows and {@link Fsck} every
 * {@value #PAIMON_CHECK_INTERVAL} and at the end. Every {@value #COMPACTION_INTERVAL} statements Paimon Java fully
 * compacts the table, so later statements read and write on top of compacted files.
 * <p>
 * Size: {@code -Dpaimon.test.workload.statements=N} statements per table (60 by default); the seed is printed and can be fixed with
 * {@code -Dpaimon.test.workload.seed=S}. First-row tables are left out: the connector refuses every write to them.
 */
final class TestRandomizedWorkload
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "workload";
    private static final int STATEMENTS = Integer.getInteger("paimon.test.workload.statements", 60);
    private static final long SEED = Long.getLong("paimon.test.workload.seed", new Random().nextLong());
    private static final int KEYS_PER_PARTITION = 1500;
    private static final List<String> PARTITIONS = List.of("a", "b");
    private static final int TRINO_CHECK_INTERVAL = 50;
    private static final int PAIMON_CHECK_INTERVAL = 500;
    private static final int COMPACTION_INTERVAL = 100;

    enum Engine
    {
        DEDUPLICATE(true),
        PARTIAL_UPDATE(true),
        // UPDATE would add to the sum (RowChangeRules refuses it); DELETE removes the row (remove-record-on-delete)
        AGGREGATION(false);

        private final boolean updates;

        Engine(boolean updates)
        {
            this.updates = updates;
        }
    }

    enum WorkloadTable
    {
        DEDUP_FIXED(Engine.DEDUPLICATE, 4),
        DEDUP_DYNAMIC(Engine.DEDUPLICATE, -1),
        PARTIAL_FIXED(Engine.PARTIAL_UPDATE, 3),
        PARTIAL_DYNAMIC(Engine.PARTIAL_UPDATE, -1),
        AGGREGATION_FIXED(Engine.AGGREGATION, 4),
        AGGREGATION_DYNAMIC(Engine.AGGREGATION, -1);

        private final Engine engine;
        private final int buckets;

        WorkloadTable(Engine engine, int buckets)
        {
            this.engine = engine;
            this.buckets = buckets;
        }

        String sqlName()
        {
            return name().toLowerCase(Locale.ENGLISH);
        }
    }

    TestRandomizedWorkload()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        System.out.printf("TestRandomizedWorkload seed=%s statements=%s (-Dpaimon.test.workload.seed=%s)%n", SEED, STATEMENTS, SEED);
        for (WorkloadTable table : WorkloadTable.values()) {
            Schema.Builder schema = Schema.newBuilder()
                    .column("dt", DataTypes.STRING().notNull())
                    .column("id", DataTypes.INT().notNull())
                    .column("num", DataTypes.BIGINT())
                    .column("txt", DataTypes.STRING())
                    .partitionKeys("dt")
                    .primaryKey("dt", "id")
                    .option("bucket", String.valueOf(table.buckets))
                    // a few buckets per partition with dynamic buckets too
                    .option("dynamic-bucket.target-row-num", "400");
            switch (table.engine) {
                case DEDUPLICATE -> {}
                case PARTIAL_UPDATE -> schema
                        .option("merge-engine", "partial-update")
                        .option("partial-update.remove-record-on-delete", "true");
                case AGGREGATION -> schema
                        .option("merge-engine", "aggregation")
                        .option("fields.num.aggregate-function", "sum")
                        .option("fields.txt.aggregate-function", "max")
                        .option("aggregation.remove-record-on-delete", "true");
            }
            paimon.createTable(DATABASE, table.sqlName(), schema.build());
        }
    }

    @ParameterizedTest
    @EnumSource(WorkloadTable.class)
    void workloadMatchesModel(WorkloadTable table)
    {
        long seed = SEED + table.ordinal();
        Random random = new Random(seed);
        Model model = new Model(table.engine);
        String name = table.sqlName();
        for (int statement = 1; statement <= STATEMENTS; statement++) {
            Change change = nextChange(random, table.engine, name, model);
            OptionalLong reported = getQueryRunner().execute(change.sql()).getUpdateCount();
            long expectedCount = change.apply().applyAsLong();
            if (change.countKnown()) {
                assertThat(reported).as("seed %s statement %s: %s", seed, statement, change.sql()).hasValue(expectedCount);
            }
            if (statement % TRINO_CHECK_INTERVAL == 0 || statement == STATEMENTS) {
                assertThat(RowText.paimonText(computeActual("SELECT * FROM " + name)))
                        .as("Trino reads %s after statement %s (seed %s), last: %s", name, statement, seed, change.sql())
                        .isEqualTo(model.rows());
            }
            if (statement % COMPACTION_INTERVAL == 0) {
                compactFully(uncachedPaimon().getTable(DATABASE, name));
            }
            if (statement % PAIMON_CHECK_INTERVAL == 0 || statement == STATEMENTS) {
                Table paimonTable = uncachedPaimon().getTable(DATABASE, name);
                assertThat(RowText.paimonText(paimonTable)).as("Paimon Java reads %s after statement %s (seed %s)", name, statement, seed).isEqualTo(model.rows());
                assertThat(Fsck.check(new LocalFileSystem(root()), Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, name)), paimonTable))
                        .as("Fsck of %s after statement %s (seed %s)", name, statement, seed)
                        .isEmpty();
            }
        }
        System.out.printf("T21 %s: %s statements, %s rows at the end, seed %s%n", name, STATEMENTS, model.rows().size(), seed);
    }

    private interface CountingAction
    {
        long applyAsLong();
    }

    /**
     * A statement and what it does to the model.
     *
     * @param countKnown whether the connector reports the changed row count (a partition drop of a primary-key table
     * does not)
     */
    private record Change(String sql, CountingAction apply, boolean countKnown) {}

    private static Change nextChange(Random random, Engine engine, String table, Model model)
    {
        int kind = random.nextInt(100);
        if (kind < 35) {
            return insert(random, table, model);
        }
        if (kind < 55 && engine.updates) {
            return update(random, engine, table, model);
        }
        if (kind < 75) {
            return delete(random, table, model);
        }
        return merge(random, engine, table, model);
    }

    private static Change insert(Random random, String table, Model model)
    {
        Map<Key, Row> rows = new LinkedHashMap<>();
        int count = 1 + random.nextInt(40);
        while (rows.size() < count) {
            rows.put(randomKey(random), new Row(randomNumber(random), randomText(random, "i")));
        }
        String values = rows.entrySet().stream()
                .map(row -> "(%s, %s, %s, %s)".formatted(quote(row.getKey().dt()), row.getKey().id(), literal(row.getValue().num()), literal(row.getValue().txt())))
                .collect(Collectors.joining(", "));
        return new Change("INSERT INTO %s VALUES %s".formatted(table, values), () -> {
            rows.forEach(model::write);
            return rows.size();
        }, true);
    }

    private static Change update(Random random, Engine engine, String table, Model model)
    {
        Condition condition = randomCondition(random);
        long delta = random.nextInt(100) - 50;
        String text = "u" + random.nextInt(1000);
        int setting = random.nextInt(engine == Engine.DEDUPLICATE ? 4 : 3);
        String set;
        UnaryOperator<Row> change;
        switch (setting) {
            case 0 -> {
                // a partial update cannot set NULL, so NULL becomes a number there
                if (engine == Engine.DEDUPLICATE) {
                    set = "num = num + %s".formatted(delta);
                    change = row -> new Row(row.num() == null ? null : row.num() + delta, row.txt());
                }
                else {
                    set = "num = coalesce(num, 0) + %s".formatted(delta);
                    change = row -> new Row((row.num() == null ? 0 : row.num()) + delta, row.txt());
                }
            }
            case 1 -> {
                set = "txt = '%s'".formatted(text);
                change = row -> new Row(row.num(), text);
            }
            case 2 -> {
                set = "txt = '%s', num = %s".formatted(text, delta);
                change = _ -> new Row(delta, text);
            }
            default -> {
                set = "txt = NULL";
                change = row -> new Row(row.num(), null);
            }
        }
        return new Change("UPDATE %s SET %s WHERE %s".formatted(table, set, condition.sql()), () -> {
            List<Key> matched = model.matching(condition.test());
            matched.forEach(key -> model.replace(key, change.apply(model.get(key))));
            return matched.size();
        }, true);
    }

    private static Change delete(Random random, String table, Model model)
    {
        if (random.nextInt(50) == 0) {
            // the whole partition: dropped in metadata, no row count reported
            String dt = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
            return new Change("DELETE FROM %s WHERE dt = '%s'".formatted(table, dt), () -> {
                List<Key> matched = model.matching((key, _) -> key.dt().equals(dt));
                matched.forEach(model::delete);
                return matched.size();
            }, false);
        }
        Condition condition = randomCondition(random);
        return new Change("DELETE FROM %s WHERE %s".formatted(table, condition.sql()), () -> {
            List<Key> matched = model.matching(condition.test());
            matched.forEach(model::delete);
            return matched.size();
        }, true);
    }

    /**
     * A MERGE whose source rows say what to do with their key: D deletes it when it is there, U replaces its values
     * when it is there (not on aggregation tables, where UPDATE is refused), I inserts it when it is not.
     */
    private static Change merge(Random random, Engine engine, String table, Model model)
    {
        Map<Key, SourceRow> source = new LinkedHashMap<>();
        int count = 1 + random.nextInt(30);
        while (source.size() < count) {
            String op = switch (random.nextInt(engine.updates ? 3 : 2)) {
                case 0 -> "I";
                case 1 -> "D";
                default -> "U";
            };
            // partial-update refuses to set NULL
            boolean nonNull = op.equals("U") && engine == Engine.PARTIAL_UPDATE;
            Long number = nonNull ? (Long) (long) random.nextInt(1000) : randomNumber(random);
            String text = nonNull ? "m" + random.nextInt(1000) : randomText(random, "m");
            source.put(randomKey(random), new SourceRow(op, new Row(number, text)));
        }
        String values = source.entrySet().stream()
                .map(row -> "(%s, %s, %s, %s, '%s')".formatted(quote(row.getKey().dt()), row.getKey().id(), literal(row.getValue().row().num()), literal(row.getValue().row().txt()), row.getValue().op()))
                .collect(Collectors.joining(", "));
        StringBuilder sql = new StringBuilder("MERGE INTO %s x USING (VALUES %s) s(dt, id, num, txt, op) ON x.dt = s.dt AND x.id = s.id\n".formatted(table, values));
        sql.append("WHEN MATCHED AND s.op = 'D' THEN DELETE\n");
        if (engine.updates) {
            sql.append("WHEN MATCHED AND s.op = 'U' THEN UPDATE SET num = s.num, txt = s.txt\n");
            sql.append("WHEN NOT MATCHED AND s.op = 'I' THEN INSERT VALUES (s.dt, s.id, s.num, s.txt)");
        }
        else {
            sql.append("WHEN NOT MATCHED AND s.op = 'I' THEN INSERT VALUES (s.dt, s.id, s.num, s.txt)");
        }
        return new Change(sql.toString(), () -> {
            long changed = 0;
            for (Map.Entry<Key, SourceRow> entry : source.entrySet()) {
                Key key = entry.getKey();
                SourceRow row = entry.getValue();
                boolean present = model.get(key) != null;
                if (present && row.op().equals("D")) {
                    model.delete(key);
                    changed++;
                }
                else if (present && row.op().equals("U")) {
                    model.replace(key, row.row());
                    changed++;
                }
                else if (!present && row.op().equals("I")) {
                    model.write(key, row.row());
                    changed++;
                }
            }
            return changed;
        }, true);
    }

    /** A WHERE clause and the same test on the model's rows. */
    private record Condition(String sql, BiPredicate<Key, Row> test) {}

    private static Condition randomCondition(Random random)
    {
        String dt = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
        return switch (random.nextInt(5)) {
            case 0, 1 -> {
                int low = random.nextInt(KEYS_PER_PARTITION);
                int high = low + random.nextInt(40);
                yield new Condition("dt = '%s' AND id BETWEEN %s AND %s".formatted(dt, low, high),
                        (key, _) -> key.dt().equals(dt) && key.id() >= low && key.id() <= high);
            }
            case 2 -> {
                int modulus = 50 + random.nextInt(100);
                int remainder = random.nextInt(modulus);
                yield new Condition("id %% %s = %s".formatted(modulus, remainder), (key, _) -> key.id() % modulus == remainder);
            }
            case 3 -> {
                long bound = 990 - random.nextInt(20);
                // NULL compares to nothing
                yield new Condition("num > %s".formatted(bound), (_, row) -> row.num() != null && row.num() > bound);
            }
            default -> {
                int low = random.nextInt(KEYS_PER_PARTITION);
                int high = low + random.nextInt(100);
                yield new Condition("txt IS NULL AND id BETWEEN %s AND %s".formatted(low, high),
                        (key, row) -> row.txt() == null && key.id() >= low && key.id() <= high);
            }
        };
    }

    private static Key randomKey(Random random)
    {
        return new Key(PARTITIONS.get(random.nextInt(PARTITIONS.size())), random.nextInt(KEYS_PER_PARTITION));
    }

    private static Long randomNumber(Random random)
    {
        return random.nextInt(5) == 0 ? null : (long) (random.nextInt(2001) - 1000);
    }

    private static String randomText(Random random, String prefix)
    {
        return random.nextInt(5) == 0 ? null : prefix + random.nextInt(1000);
    }

    private static String literal(Long value)
    {
        return value == null ? "CAST(NULL AS bigint)" : value.toString();
    }

    private static String literal(String value)
    {
        return value == null ? "CAST(NULL AS varchar)" : quote(value);
    }

    private static String quote(String value)
    {
        return "'" + value + "'";
    }

    private record Key(String dt, int id)
            implements Comparable<Key>
    {
        @Override
        public int compareTo(Key other)
        {
            int byPartition = dt.compareTo(other.dt);
            return byPartition != 0 ? byPartition : Integer.compare(id, other.id);
        }
    }

    private record Row(Long num, String txt) {}

    private record SourceRow(String op, Row row) {}

    /**
     * What a table holds after each statement, by the engine's documented rules (merge-semantics.md §3): deduplicate
     * keeps the last row; partial-update keeps, per column, the last non-NULL value; aggregation sums {@code num} and
     * keeps the greatest {@code txt}, NULLs ignored; a DELETE removes the key, and a later row starts it afresh
     * ({@code remove-record-on-delete}). An UPDATE writes the whole new row, which every engine allowed to update
     * reads as the row.
     */
    private static final class Model
    {
        private final Engine engine;
        private final Map<Key, Row> rows = new TreeMap<>();

        Model(Engine engine)
        {
            this.engine = engine;
        }

        Row get(Key key)
        {
            return rows.get(key);
        }

        /** An inserted row, merged with the key's current row by the engine. */
        void write(Key key, Row row)
        {
            Row current = rows.get(key);
            if (current == null || engine == Engine.DEDUPLICATE) {
                rows.put(key, row);
                return;
            }
            rows.put(key, switch (engine) {
                case PARTIAL_UPDATE -> new Row(row.num() != null ? row.num() : current.num(), row.txt() != null ? row.txt() : current.txt());
                case AGGREGATION -> new Row(sum(current.num(), row.num()), max(current.txt(), row.txt()));
                case DEDUPLICATE -> throw new IllegalStateException();
            });
        }

        void replace(Key key, Row row)
        {
            rows.put(key, row);
        }

        void delete(Key key)
        {
            rows.remove(key);
        }

        List<Key> matching(BiPredicate<Key, Row> test)
        {
            return rows.entrySet().stream().filter(entry -> test.test(entry.getKey(), entry.getValue())).map(Map.Entry::getKey).toList();
        }

        /** As {@link RowText#paimonText}. */
        List<String> rows()
        {
            return rows.entrySet().stream()
                    .map(entry -> "(%s, %s, %s, %s)".formatted(entry.getKey().dt(), entry.getKey().id(), entry.getValue().num(), entry.getValue().txt()))
                    .sorted()
                    .toList();
        }

        private static Long sum(Long left, Long right)
        {
            if (left == null) {
                return right;
            }
            return right == null ? left : left + right;
        }

        private static String max(String left, String right)
        {
            if (left == null) {
                return right;
            }
            return right == null || left.compareTo(right) >= 0 ? left : right;
        }
    }

    /** Fully compacts every bucket of every partition with Paimon Java's writer, in one commit. */
    private void compactFully(Table table)
    {
        FileStoreTable fileStoreTable = (FileStoreTable) table.copy(Map.of("write-only", "false"));
        Set<Map.Entry<BinaryRow, Integer>> buckets = new LinkedHashSet<>();
        fileStoreTable.store().newScan().plan().files().forEach(entry -> buckets.add(Map.entry(entry.partition().copy(), entry.bucket())));
        BatchWriteBuilder builder = fileStoreTable.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(IOManager.create(root().toString()));
                BatchTableCommit commit = builder.newCommit()) {
            for (Map.Entry<BinaryRow, Integer> bucket : buckets) {
                write.compact(bucket.getKey(), bucket.getValue(), true);
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new RuntimeException("Paimon Java failed to compact " + table.name(), e);
        }
    }
}
