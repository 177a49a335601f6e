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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.TagFiles;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.Timestamps.MICROSECONDS_PER_MILLISECOND;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$tags"}: one row per tag, by name, with the snapshot it keeps readable
 * ({@code FOR VERSION AS OF '<tag>'}), and the creation time and retention of a tag made with one.
 */
public final class TagsTable
        extends PaimonSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = ImmutableList.of(
            new ColumnMetadata("tag_name", VARCHAR),
            new ColumnMetadata("snapshot_id", BIGINT),
            new ColumnMetadata("schema_id", BIGINT),
            new ColumnMetadata("commit_time", TIMESTAMP_TZ_MILLIS),
            new ColumnMetadata("record_count", BIGINT),
            // the local date and time the tag was made, as Paimon records it for a tag with a retention
            new ColumnMetadata("create_time", TIMESTAMP_MILLIS),
            // the retention as Java prints a duration ("PT168H"), as Paimon's $tags shows it
            new ColumnMetadata("time_retained", VARCHAR));

    public TagsTable(PaimonCatalog catalog, PaimonTable table, SchemaTableName systemTableName)
    {
        super(catalog, table, systemTableName, COLUMNS);
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = rows();
        TagFiles tags = new TagFiles(catalog.fileSystem(session, table.name()), table.metadataLocation());
        for (String name : tags.listTags()) {
            // a tag deleted between the listing and the read is simply not shown
            Optional<Snapshot> tagged = tags.readTag(name);
            if (tagged.isEmpty()) {
                continue;
            }
            Snapshot snapshot = tagged.get();
            Optional<TagFiles.TagRetention> retention = tags.readRetention(name);
            rows.addRow(
                    name,
                    snapshot.id(),
                    snapshot.schemaId(),
                    packDateTimeWithZone(snapshot.timeMillis(), UTC_KEY),
                    snapshot.totalRecordCount().isPresent() ? snapshot.totalRecordCount().getAsLong() : null,
                    retention.flatMap(TagFiles.TagRetention::createTime)
                            .map(time -> time.toInstant(ZoneOffset.UTC).toEpochMilli() * MICROSECONDS_PER_MILLISECOND)
                            .orElse(null),
                    retention.flatMap(TagFiles.TagRetention::timeRetained).map(Duration::toString).orElse(null));
        }
        return rows.build().cursor();
    }
}
