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

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.catalog.PartitionExpiry;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.maintenance.PartitionExpiration;
import io.trino.plugin.paimon.maintenance.TableTags;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.SnapshotRetention;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.procedure.Procedure.Argument;

import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import static com.google.common.base.Verify.verify;
import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.invoke.MethodHandles.lookup;
import static java.util.Objects.requireNonNull;

/**
 * The procedures on a table's versions, as Paimon's Spark and Flink integrations name and shape them, each a
 * {@code CALL paimon.system.<name>(schema_name => …, table_name => …, …)}: {@code create_tag} (of the latest snapshot
 * or {@code snapshot_id}, with an optional {@code time_retained} in Paimon's duration syntax),
 * {@code create_tag_from_timestamp} (of the first snapshot at or after {@code timestamp}, epoch milliseconds),
 * {@code delete_tag} (a comma-separated list), {@code rename_tag}, {@code expire_tags} (those past their retention or
 * made before {@code older_than}), {@code create_branch} (empty or from a {@code tag}),
 * {@code delete_branch}, {@code rollback_to} (a {@code snapshot_id} or a {@code tag}), {@code fast_forward} and
 * {@code expire_partitions} (see {@link PartitionExpiration}). {@code table_name} may name a branch ({@code t$branch_b}); a REST catalog creates and
 * deletes branches, rolls back and fast-forwards on its server.
 */
public final class TableVersionProcedures
{
    private static final Argument SCHEMA_NAME = new Argument("SCHEMA_NAME", VARCHAR);
    private static final Argument TABLE_NAME = new Argument("TABLE_NAME", VARCHAR);
    private static final Argument TAG = new Argument("TAG", VARCHAR);
    private static final Argument BRANCH = new Argument("BRANCH", VARCHAR);

    public static final List<String> NAMES = List.of("create_tag", "create_tag_from_timestamp", "delete_tag", "rename_tag", "expire_tags", "create_branch", "delete_branch", "rollback_to", "fast_forward", "expire_partitions");

    private final PaimonCatalog catalog;
    private final Map<String, Procedure> procedures;

    @Inject
    public TableVersionProcedures(PaimonCatalog catalog)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.procedures = Stream.of(
                procedure("create_tag", "createTag", List.of(TAG, new Argument("SNAPSHOT_ID", BIGINT, false, null), new Argument("TIME_RETAINED", VARCHAR, false, null)), String.class, Long.class, String.class),
                procedure("create_tag_from_timestamp", "createTagFromTimestamp", List.of(TAG, new Argument("TIMESTAMP", BIGINT), new Argument("TIME_RETAINED", VARCHAR, false, null)), String.class, Long.class, String.class),
                procedure("delete_tag", "deleteTag", List.of(TAG), String.class),
                procedure("expire_tags", "expireTags", List.of(new Argument("OLDER_THAN", VARCHAR, false, null)), String.class),
                procedure("rename_tag", "renameTag", List.of(TAG, new Argument("TARGET_TAG", VARCHAR)), String.class, String.class),
                procedure("create_branch", "createBranch", List.of(BRANCH, new Argument("TAG", VARCHAR, false, null)), String.class, String.class),
                procedure("delete_branch", "deleteBranch", List.of(BRANCH), String.class),
                procedure("rollback_to", "rollbackTo", List.of(new Argument("SNAPSHOT_ID", BIGINT, false, null), new Argument("TAG", VARCHAR, false, null)), Long.class, String.class),
                procedure("fast_forward", "fastForward", List.of(BRANCH), String.class),
                procedure("expire_partitions", "expirePartitions", List.of(
                        new Argument("EXPIRATION_TIME", VARCHAR, false, null),
                        new Argument("TIMESTAMP_FORMATTER", VARCHAR, false, null),
                        new Argument("TIMESTAMP_PATTERN", VARCHAR, false, null),
                        new Argument("EXPIRE_STRATEGY", VARCHAR, false, null),
                        new Argument("MAX_EXPIRES", BIGINT, false, null),
                        new Argument("OPTIONS", VARCHAR, false, null)), String.class, String.class, String.class, String.class, Long.class, String.class))
                .collect(toImmutableMap(Procedure::getName, procedure -> procedure));
        verify(procedures.keySet().equals(Set.copyOf(NAMES)), "procedures %s are not %s", procedures.keySet(), NAMES);
    }

    /** The procedure of one of {@link #NAMES}, bound to this object. */
    public Procedure procedure(String name)
    {
        return requireNonNull(procedures.get(name), () -> "no procedure " + name);
    }

    public void createTag(ConnectorSession session, String schemaName, String tableName, String tag, Long snapshotId, String timeRetained)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "create_tag", schemaName, tableName);
            tags(session, table).create(tag, snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId), timeRetained(table, timeRetained));
        }
    }

    public void createTagFromTimestamp(ConnectorSession session, String schemaName, String tableName, String tag, Long timestampMillis, String timeRetained)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "create_tag_from_timestamp", schemaName, tableName);
            if (timestampMillis == null) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "create_tag_from_timestamp: timestamp (milliseconds since the epoch) is required");
            }
            tags(session, table).createFromTimestamp(tag, timestampMillis, timeRetained(table, timeRetained));
        }
    }

    public void expireTags(ConnectorSession session, String schemaName, String tableName, String olderThan)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "expire_tags", schemaName, tableName);
            tags(session, table).expire(Optional.ofNullable(olderThan).map(value -> localDateTime(table, value)));
        }
    }

    // a date and time as Paimon's expire_tags reads older_than: 'yyyy-MM-dd HH:mm:ss[.fraction]' or a date alone
    private static LocalDateTime localDateTime(PaimonTable table, String value)
    {
        String text = value.strip();
        try {
            if (text.length() == 10) {
                return LocalDate.parse(text).atStartOfDay();
            }
            return LocalDateTime.parse(text.replace(' ', 'T'));
        }
        catch (DateTimeParseException e) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "expire_tags of Paimon table %s: older_than '%s' is not a date and time such as '2026-12-07 10:00:00'".formatted(table.name(), value), e);
        }
    }

    private static Optional<Duration> timeRetained(PaimonTable table, String value)
    {
        return Optional.ofNullable(value).map(text -> SnapshotRetention.parseDuration(table.name().toString(), "time_retained", text));
    }

    public void deleteTag(ConnectorSession session, String schemaName, String tableName, String tag)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "delete_tag", schemaName, tableName);
            if (tag == null) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "delete_tag: tag is required");
            }
            tags(session, table).delete(Arrays.stream(tag.split(",", -1)).map(String::trim).toList());
        }
    }

    public void renameTag(ConnectorSession session, String schemaName, String tableName, String tag, String targetTag)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "rename_tag", schemaName, tableName);
            tags(session, table).rename(tag, targetTag);
        }
    }

    public void createBranch(ConnectorSession session, String schemaName, String tableName, String branch, String tag)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "create_branch", schemaName, tableName);
            catalog.createBranch(session, table, branch, Optional.ofNullable(tag));
            catalog.flushMetadataCache(Optional.of(schemaName), Optional.of(table.name().getTableName()));
        }
    }

    public void deleteBranch(ConnectorSession session, String schemaName, String tableName, String branch)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "delete_branch", schemaName, tableName);
            catalog.dropBranch(session, table, branch);
            catalog.flushMetadataCache(Optional.of(schemaName), Optional.of(table.name().getTableName()));
        }
    }

    public void rollbackTo(ConnectorSession session, String schemaName, String tableName, Long snapshotId, String tag)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "rollback_to", schemaName, tableName);
            if ((snapshotId == null) == (tag == null)) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "rollback_to: give either snapshot_id or tag");
            }
            catalog.rollbackTo(session, table, snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId), Optional.ofNullable(tag));
            catalog.flushMetadataCache(Optional.of(schemaName), Optional.of(table.name().getTableName()));
        }
    }

    public void fastForward(ConnectorSession session, String schemaName, String tableName, String branch)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "fast_forward", schemaName, tableName);
            if (branch == null) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "fast_forward: branch is required");
            }
            catalog.fastForward(session, table, branch);
            catalog.flushMetadataCache(Optional.of(schemaName), Optional.of(table.name().getTableName()));
        }
    }

    /**
     * Drops the partitions that have expired, as Paimon's {@code expire_partitions} does: its arguments (and
     * {@code options}, {@code key=value} pairs separated by commas) are laid over the table's options for this call.
     */
    public void expirePartitions(ConnectorSession session, String schemaName, String tableName, String expirationTime, String timestampFormatter, String timestampPattern, String expireStrategy, Long maxExpires, String options)
    {
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(getClass().getClassLoader())) {
            PaimonTable table = VersionProcedureTable.load(catalog, session, "expire_partitions", schemaName, tableName);
            if (table.partitionFields().isEmpty()) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "expire_partitions: Paimon table %s is not partitioned".formatted(table.displayName()));
            }
            Map<String, String> settings = new HashMap<>(table.schema().options());
            settings.putAll(keyValues(table, options));
            putIfGiven(settings, PartitionExpiration.EXPIRATION_TIME, expirationTime);
            putIfGiven(settings, PartitionExpiration.TIMESTAMP_FORMATTER, timestampFormatter);
            putIfGiven(settings, PartitionExpiration.TIMESTAMP_PATTERN, timestampPattern);
            putIfGiven(settings, PartitionExpiration.STRATEGY, expireStrategy);
            putIfGiven(settings, PartitionExpiration.MAX_EXPIRES, maxExpires == null ? null : maxExpires.toString());
            PartitionExpiration expiration;
            try {
                expiration = PartitionExpiration.fromOptions(table.displayName(), settings).orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT,
                        "expire_partitions of Paimon table %s: give expiration_time, or set the table option '%s'".formatted(table.displayName(), PartitionExpiration.EXPIRATION_TIME)));
            }
            catch (TrinoException e) {
                if (!e.getErrorCode().equals(PAIMON_INVALID_TABLE_OPTION.toErrorCode())) {
                    throw e;
                }
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "expire_partitions: " + e.getMessage(), e);
            }
            catalog.checkCommitsAreExclusive(session, table);
            new PartitionExpiry(catalog.fileSystem(session, table.name()), table, catalog.snapshotPublisher(session, table))
                    .expire(expiration, LocalDateTime.now(), Map.of(Snapshot.TRINO_QUERY_ID_PROPERTY, session.getQueryId()));
            catalog.flushMetadataCache(Optional.of(schemaName), Optional.of(table.name().getTableName()));
        }
    }

    private static void putIfGiven(Map<String, String> settings, String option, String value)
    {
        if (value != null && !value.isBlank()) {
            settings.put(option, value);
        }
    }

    // key=value pairs separated by commas, as Paimon's procedures take their options
    private static Map<String, String> keyValues(PaimonTable table, String text)
    {
        Map<String, String> values = new HashMap<>();
        if (text == null || text.isBlank()) {
            return values;
        }
        for (String pair : text.split(",")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "expire_partitions of Paimon table %s: options '%s' are not key=value pairs separated by commas".formatted(table.displayName(), text));
            }
            values.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
        }
        return values;
    }

    private TableTags tags(ConnectorSession session, PaimonTable table)
    {
        return new TableTags(catalog.fileSystem(session, table.name()), table);
    }

    // a procedure whose arguments are schema_name, table_name and the given ones, run by the method of that name
    private Procedure procedure(String name, String methodName, List<Argument> arguments, Class<?>... argumentTypes)
    {
        Class<?>[] parameters = new Class<?>[argumentTypes.length + 3];
        parameters[0] = ConnectorSession.class;
        parameters[1] = String.class;
        parameters[2] = String.class;
        System.arraycopy(argumentTypes, 0, parameters, 3, argumentTypes.length);
        MethodHandle method;
        try {
            method = lookup().unreflect(TableVersionProcedures.class.getMethod(methodName, parameters));
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        return new Procedure("system", name, ImmutableList.<Argument>builder().add(SCHEMA_NAME, TABLE_NAME).addAll(arguments).build(), method.bindTo(this));
    }
}
