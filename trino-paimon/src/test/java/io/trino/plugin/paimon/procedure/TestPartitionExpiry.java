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
package io.trino.plugin.paimon.procedure;

import io.trino.plugin.paimon.testing.AbstractFaultInjectionQueryTest;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.HeldRace;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.Snapshot.CommitKind;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.utils.ProcedureUtils;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertThatTrinoException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Partition expiry as Paimon does it, with Paimon Java 1.4.2 as the oracle: {@code expire_partitions} from Trino and
 * Paimon's own partition expiry, run on twin tables ({@code <name>_java}), leave the same partitions, each in one
 * OVERWRITE snapshot; the expired partitions are also worked out by hand. Trino's commits expire partitions as
 * Paimon's batch commits do ({@code end-input.check-partition-expire}).
 */
final class TestPartitionExpiry
        extends AbstractFaultInjectionQueryTest
{
    private static final String DATABASE = "partition_expiry";
    // partitions named by a date (two of them in Paimon's lenient default format, one with a time), a text that is no
    // date, NULL, and a date far ahead
    private static final String DAYS = "(1, '2020-01-01'), (2, '2020-01-01 12:30:00'), (3, '2020-01-02'), (4, '2020-1-3'), (5, 'not a date'), (6, NULL), (7, '2999-01-01')";

    TestPartitionExpiry()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String name : List.of("days", "days_java", "updated", "raced")) {
            paimon.createTable(DATABASE, name, byDay().build());
        }
        for (String name : List.of("hours", "hours_java")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("dt", DataTypes.STRING())
                    .column("hh", DataTypes.STRING())
                    .partitionKeys("dt", "hh")
                    .option("partition.expiration-time", "1 d")
                    .option("partition.timestamp-pattern", "$dt $hh:00:00")
                    .option("partition.timestamp-formatter", "yyyyMMdd HH:mm:ss")
                    .build());
        }
        for (String name : List.of("dates", "dates_java")) {
            paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("d", DataTypes.DATE())
                    .partitionKeys("d")
                    .build());
        }
        for (String name : List.of("on_commit", "on_commit_java")) {
            paimon.createTable(DATABASE, name, byDay()
                    .option("partition.expiration-time", "1 d")
                    .option("end-input.check-partition-expire", "true")
                    .build());
        }
        for (String name : List.of("hourly_check", "hourly_check_java")) {
            paimon.createTable(DATABASE, name, byDay().option("partition.expiration-time", "1 d").build());
        }
        paimon.createTable(DATABASE, "unpartitioned", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("dt", DataTypes.STRING())
                .build());
    }

    private static Schema.Builder byDay()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt");
    }

    /**
     * By hand: four partitions name a day before yesterday; sorted by their text, the first three go when at most
     * three may, then the fourth. A text that is no date, NULL and a date ahead never expire.
     */
    @Test
    void expirePartitionsDropsThoseWhoseValuesAreOlderThanTheExpirationTime()
    {
        assertUpdate("INSERT INTO days VALUES " + DAYS, 7);
        assertUpdate("INSERT INTO days_java VALUES " + DAYS, 7);

        callExpirePartitions("days", "expiration_time => '1 d', max_expires => 3");
        expireWithPaimonJava("days_java", "1 d", null, 3);
        assertThat(ids("days")).containsExactly(4, 5, 6, 7);
        assertThat(ids("days_java")).isEqualTo(ids("days"));
        assertThat(table("days").snapshotManager().latestSnapshot().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(latestSnapshotIdOf("days")).isEqualTo(2);

        callExpirePartitions("days", "expiration_time => '1 d'");
        expireWithPaimonJava("days_java", "1 d", null, null);
        assertThat(ids("days")).containsExactly(5, 6, 7);
        assertThat(ids("days_java")).isEqualTo(ids("days"));
        assertThat(tableRows("days")).isEqualTo(List.of("(5, not a date)", "(6, null)", "(7, 2999-01-01)"));

        // nothing left to expire: no commit
        callExpirePartitions("days", "expiration_time => '1 d'");
        assertThat(latestSnapshotIdOf("days")).isEqualTo(3);
        assertThat(fsckViolations("days")).isEmpty();
    }

    /** The table's own options: the time is the pattern over two partition keys, read by the formatter. */
    @Test
    void tableOptionsGiveThePatternAndFormatter()
    {
        String rows = "(1, '20200101', '05'), (2, '20200101', '23'), (3, '29990101', '00'), (4, '2020-01-01', '05')";
        assertUpdate("INSERT INTO hours VALUES " + rows, 4);
        assertUpdate("INSERT INTO hours_java VALUES " + rows, 4);

        callExpirePartitions("hours", "");
        expireWithPaimonJava("hours_java", null, null, null);
        // by hand: the fourth's text does not fit the formatter, the third is ahead
        assertThat(ids("hours")).containsExactly(3, 4);
        assertThat(ids("hours_java")).isEqualTo(ids("hours"));
    }

    /**
     * As in Paimon, values-time reads a DATE partition as its internal day number, which names no time: such
     * partitions never expire by their values.
     */
    @Test
    void datePartitionsDoNotExpireByValue()
    {
        assertUpdate("INSERT INTO dates VALUES (1, DATE '2020-01-01'), (2, DATE '2999-01-01')", 2);
        assertUpdate("INSERT INTO dates_java VALUES (1, DATE '2020-01-01'), (2, DATE '2999-01-01')", 2);
        callExpirePartitions("dates", "expiration_time => '1 d'");
        expireWithPaimonJava("dates_java", "1 d", null, null);
        assertThat(ids("dates_java")).containsExactly(1, 2);
        assertThat(ids("dates")).isEqualTo(ids("dates_java"));
        assertThat(latestSnapshotIdOf("dates")).isEqualTo(1);
    }

    /** update-time: a partition whose newest file is older than the expiration time goes, a fresher one stays. */
    @Test
    void updateTimeExpiresPartitionsNotWrittenSince()
            throws InterruptedException
    {
        assertUpdate("INSERT INTO updated VALUES (1, 'old'), (2, 'refreshed')", 2);
        Thread.sleep(6_000);
        assertUpdate("INSERT INTO updated VALUES (3, 'refreshed'), (4, 'new')", 2);
        callExpirePartitions("updated", "expiration_time => '3 s', expire_strategy => 'update-time'");
        assertThat(ids("updated")).containsExactly(2, 3, 4);
        assertThat(PaimonJavaCatalog.readRows(table("updated"))).hasSize(3);
    }

    /**
     * With {@code end-input.check-partition-expire}, a commit expires partitions afterwards, as a Paimon batch commit
     * does, including those it wrote itself; with the default hourly check, neither a Trino nor a batch commit does.
     */
    @Test
    void commitsExpirePartitionsAsPaimonsBatchCommitsDo()
    {
        List<GenericRow> rows = List.of(GenericRow.of(1, BinaryString.fromString("2020-01-01")), GenericRow.of(2, BinaryString.fromString("2999-01-01")));
        for (String name : List.of("on_commit", "hourly_check")) {
            assertUpdate("INSERT INTO %s VALUES (1, '2020-01-01'), (2, '2999-01-01')".formatted(name), 2);
            PaimonJavaCatalog.write(table(name + "_java"), rows);
        }
        assertThat(ids("on_commit_java")).containsExactly(2);
        assertThat(ids("on_commit")).isEqualTo(ids("on_commit_java"));
        assertThat(table("on_commit").snapshotManager().latestSnapshot().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(latestSnapshotIdOf("on_commit")).isEqualTo(table("on_commit_java").snapshotManager().latestSnapshotId());

        assertThat(ids("hourly_check_java")).containsExactly(1, 2);
        assertThat(ids("hourly_check")).isEqualTo(ids("hourly_check_java"));
    }

    /** Paimon Java writing to an expiring partition while the expiry commits: the expiry fails, nothing is lost. */
    @Test
    void expiryRacingAWriteToAnExpiringPartitionFailsCleanly()
            throws Exception
    {
        assertUpdate("INSERT INTO raced VALUES (1, '2020-01-01'), (2, '2999-01-01')", 2);
        Optional<RuntimeException> failure = new HeldRace(faultFs(), Operation.CREATE_OR_OVERWRITE, "**/raced/manifest/manifest-*").run(
                () -> callExpirePartitions("raced", "expiration_time => '1 d'"),
                () -> PaimonJavaCatalog.write(table("raced"), List.of(GenericRow.of(3, BinaryString.fromString("2020-01-01")))));
        assertThat(failure).hasValueSatisfying(e -> assertThatTrinoException(e).hasErrorCode(TRANSACTION_CONFLICT));
        assertThat(ids("raced")).containsExactly(1, 2, 3);
        assertThat(latestSnapshotIdOf("raced")).isEqualTo(2);
        assertThat(fsckViolations("raced")).isEmpty();

        callExpirePartitions("raced", "expiration_time => '1 d'");
        assertThat(ids("raced")).containsExactly(2);
    }

    @Test
    void badArgumentsAreRefusedNamingThem()
    {
        assertThatTrinoException(catchThrowable(() -> callExpirePartitions("unpartitioned", "expiration_time => '1 d'")))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT).hasMessageContaining("partition_expiry.unpartitioned is not partitioned");
        assertThatTrinoException(catchThrowable(() -> callExpirePartitions("days", "")))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT).hasMessageContaining("give expiration_time");
        assertThatTrinoException(catchThrowable(() -> callExpirePartitions("days", "expiration_time => '1 d', expire_strategy => 'sometime'")))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT).hasMessageContaining("partition.expiration-strategy");
        assertThatTrinoException(catchThrowable(() -> callExpirePartitions("days", "expiration_time => '1 d', timestamp_formatter => 'yyyy{'")))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT).hasMessageContaining("is not a date-time pattern");
        assertThatTrinoException(catchThrowable(() -> callExpirePartitions("days", "expiration_time => '1 d', options => 'oops'")))
                .hasErrorCode(INVALID_PROCEDURE_ARGUMENT).hasMessageContaining("not key=value pairs");
    }

    private void callExpirePartitions(String table, String arguments)
    {
        getQueryRunner().execute("CALL paimon.system.expire_partitions(schema_name => '%s', table_name => '%s'%s)"
                .formatted(DATABASE, table, arguments.isEmpty() ? "" : ", " + arguments));
    }

    // as Paimon's expire_partitions procedures run it: the arguments laid over the table's options, checked at once
    private void expireWithPaimonJava(String name, String expirationTime, String strategy, Integer maxExpires)
    {
        FileStoreTable table = table(name);
        FileStoreTable expiring = table.copy(ProcedureUtils.fillInPartitionOptions(strategy, null, null, expirationTime, maxExpires, null));
        expiring.store().newPartitionExpire("", expiring).expire(Long.MAX_VALUE);
    }

    private List<Integer> ids(String name)
    {
        return PaimonJavaCatalog.readInternalRows(table(name)).stream()
                .map(row -> row.getInt(0))
                .sorted()
                .toList();
    }

    private FileStoreTable table(String name)
    {
        return (FileStoreTable) uncachedPaimon().getTable(DATABASE, name);
    }
}
