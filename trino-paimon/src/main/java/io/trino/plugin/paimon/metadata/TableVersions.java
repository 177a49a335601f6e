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
package io.trino.plugin.paimon.metadata;

import io.airlift.slice.Slice;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.lang.Math.floorDiv;
import static java.lang.Math.floorMod;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The snapshot a read of an older table version pins: {@code FOR VERSION AS OF <snapshot id>},
 * {@code FOR VERSION AS OF '<tag>'} and {@code FOR TIMESTAMP AS OF <time>}, the last as Paimon's
 * {@code scan.timestamp-millis} chooses it: the newest snapshot committed at or before that time. A version that does
 * not exist or has expired is an error saying which, never the latest version instead.
 */
final class TableVersions
{
    private TableVersions() {}

    /**
     * @param tag the tag whose file holds the snapshot, for a read of a tag
     */
    record PinnedVersion(Snapshot snapshot, Optional<String> tag)
    {
        PinnedVersion
        {
            requireNonNull(snapshot, "snapshot is null");
            requireNonNull(tag, "tag is null");
        }
    }

    static PinnedVersion resolve(ConnectorSession session, TrinoFileSystem fileSystem, PaimonTable table, ConnectorTableVersion version)
    {
        Type type = version.getVersionType();
        return switch (version.getPointerType()) {
            case TARGET_ID -> target(fileSystem, table, type, version.getVersion());
            case TEMPORAL -> new PinnedVersion(snapshotAt(fileSystem, table, epochMillis(session, table, type, version.getVersion())), Optional.empty());
        };
    }

    private static PinnedVersion target(TrinoFileSystem fileSystem, PaimonTable table, Type type, Object version)
    {
        return switch (type) {
            case BigintType _, IntegerType _, SmallintType _, TinyintType _ -> new PinnedVersion(snapshot(fileSystem, table, (long) version), Optional.empty());
            case VarcharType _ -> tag(fileSystem, table, ((Slice) version).toStringUtf8());
            default -> throw new TrinoException(NOT_SUPPORTED, "Table %s: a version is a snapshot id or a tag name, not a %s".formatted(table.name(), type.getDisplayName()));
        };
    }

    private static Snapshot snapshot(TrinoFileSystem fileSystem, PaimonTable table, long id)
    {
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table.metadataLocation());
        if (snapshots.snapshotExists(id)) {
            return snapshots.readSnapshot(id);
        }
        OptionalLong earliest = snapshots.earliestSnapshotId();
        OptionalLong latest = snapshots.latestSnapshotId();
        if (earliest.isEmpty()) {
            throw new TrinoException(INVALID_ARGUMENTS, "Table %s has no snapshot %s: nothing was committed to it yet".formatted(table.name(), id));
        }
        if (id < earliest.getAsLong()) {
            throw new TrinoException(INVALID_ARGUMENTS, "Table %s: snapshot %s has expired; the earliest snapshot is %s".formatted(table.name(), id, earliest.getAsLong()));
        }
        throw new TrinoException(INVALID_ARGUMENTS, "Table %s has no snapshot %s; the latest snapshot is %s".formatted(table.name(), id, latest.orElseThrow()));
    }

    private static PinnedVersion tag(TrinoFileSystem fileSystem, PaimonTable table, String name)
    {
        Snapshot snapshot = new TagFiles(fileSystem, table.metadataLocation()).readTag(name)
                .orElseThrow(() -> new TrinoException(INVALID_ARGUMENTS, "Table %s has no tag '%s'".formatted(table.name(), name)));
        return new PinnedVersion(snapshot, Optional.of(name));
    }

    private static Snapshot snapshotAt(TrinoFileSystem fileSystem, PaimonTable table, long epochMillis)
    {
        return new SnapshotFiles(fileSystem, table.metadataLocation()).snapshotAtOrBefore(epochMillis)
                .orElseThrow(() -> new TrinoException(INVALID_ARGUMENTS, "Table %s has no snapshot committed at or before %s".formatted(table.name(), Instant.ofEpochMilli(epochMillis))));
    }

    // a timestamp without a time zone is a time in the session's zone, as Trino's Iceberg connector reads it
    private static long epochMillis(ConnectorSession session, PaimonTable table, Type type, Object value)
    {
        return switch (type) {
            case TimestampWithTimeZoneType zoned when zoned.isShort() -> unpackMillisUtc((long) value);
            case TimestampWithTimeZoneType _ -> ((LongTimestampWithTimeZone) value).getEpochMillis();
            case TimestampType local -> {
                long epochMicros = local.isShort() ? (long) value : ((LongTimestamp) value).getEpochMicros();
                LocalDateTime dateTime = LocalDateTime.ofEpochSecond(floorDiv(epochMicros, 1_000_000L), toIntExact(floorMod(epochMicros, 1_000_000L) * 1_000), ZoneOffset.UTC);
                yield dateTime.atZone(session.getTimeZoneKey().getZoneId()).toInstant().toEpochMilli();
            }
            default -> throw new TrinoException(NOT_SUPPORTED, "Table %s: FOR TIMESTAMP AS OF takes a timestamp, not a %s".formatted(table.name(), type.getDisplayName()));
        };
    }
}
