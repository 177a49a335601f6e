package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.connector.ConnectorSession;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** The {@link SortedRunMerger} of one statement's page sink, bound to its session and table. */
record SpilledRunMerge(SortedRunMerger merger, ConnectorSession session, PaimonTable table)
{
    SpilledRunMerge
    {
        requireNonNull(merger, "merger is null");
        requireNonNull(session, "session is null");
        requireNonNull(table, "table is null");
    }

    List<DataFileMeta> merge(Location bucketDirectory, List<DataFileMeta> runs)
    {
        return merger.merge(session, table, bucketDirectory, runs);
    }
}
