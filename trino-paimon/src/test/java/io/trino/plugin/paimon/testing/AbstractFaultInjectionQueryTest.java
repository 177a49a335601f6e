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
package io.trino.plugin.paimon.testing;

import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.base.Preconditions.checkState;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query test whose catalog reads and writes through a {@link FaultFs} over the warehouse, for the suites that inject
 * failures and hangs into commits, compactions and row changes. Its random choices follow a seed, printed at the start
 * so that a failing run can be repeated with {@code -Dpaimon.test.seed}.
 */
public abstract class AbstractFaultInjectionQueryTest
        extends AbstractPaimonJavaQueryTest
{
    private final long seed;
    private FaultFs faultFs;

    /** A test whose seed is {@code -Dpaimon.test.seed}, or random. */
    protected AbstractFaultInjectionQueryTest(String database)
    {
        this(database, Long.getLong("paimon.test.seed", new Random().nextLong()));
    }

    protected AbstractFaultInjectionQueryTest(String database, long seed)
    {
        super(database);
        this.seed = seed;
    }

    @Override
    protected final Optional<TrinoFileSystemFactory> fileSystemFactory(Path root)
    {
        System.out.printf("%s seed=%s (-Dpaimon.test.seed=%s)%n", getClass().getSimpleName(), seed, seed);
        faultFs = FaultFs.local(root, seed);
        return Optional.of(faultFs);
    }

    protected final FaultFs faultFs()
    {
        checkState(faultFs != null, "the query runner has not started");
        return faultFs;
    }

    protected final long seed()
    {
        return seed;
    }

    /** Removes the rules a test left and checks that it left no stream open: the work of a suite's {@code @AfterEach}. */
    protected final void clearFaultsAndAssertNoStreamsOpen()
    {
        faultFs().clearRules();
        assertThat(faultFs().openStreams()).as("streams left open").isEmpty();
    }

    /**
     * Two optimizes of the table at once: the first is held at its first compaction fragment while the second runs
     * through and commits; the first then finds the files it replaces removed, fails with {@code TRANSACTION_CONFLICT}
     * and commits nothing.
     */
    protected final void assertConcurrentOptimizeConflicts(String table)
            throws Exception
    {
        String optimize = "ALTER TABLE %s EXECUTE optimize".formatted(table);
        AtomicLong afterSecond = new AtomicLong();
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/%s/_trino-optimize-*/*".formatted(table)).run(
                () -> getQueryRunner().execute(optimize),
                () -> {
                    getQueryRunner().execute(optimize);
                    afterSecond.set(latestSnapshotIdOf(table));
                });
        assertThat(failure).hasValueSatisfying(e -> assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT));
        assertThat(latestSnapshotIdOf(table)).isEqualTo(afterSecond.get());
    }

    /**
     * A primary-key table partitioned by {@code dt}, keyed by {@code (dt, k)} with a value {@code v}, in two buckets:
     * a commit to it writes several partitions and buckets, each a place for a fault to strike.
     */
    protected static Schema partitionedTableSchema()
    {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "k")
                .option("bucket", "2")
                .build();
    }
}
