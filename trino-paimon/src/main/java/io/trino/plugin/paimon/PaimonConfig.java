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
package io.trino.plugin.paimon;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import java.net.URI;

import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;

public class PaimonConfig
{
    private CatalogType catalogType = CatalogType.FILESYSTEM;
    private String warehouse;
    private DataSize maxWriteBufferSize = DataSize.of(256, MEGABYTE);
    private Duration dynamicFilteringWaitTimeout = new Duration(1, SECONDS);
    private DataSize maxSplitSize = DataSize.of(128, MEGABYTE);
    private Duration expireSnapshotsMinRetention = new Duration(7, DAYS);
    private Duration removeOrphanFilesMinRetention = new Duration(7, DAYS);
    private DataSize metadataCacheMaxSize = DataSize.of(256, MEGABYTE);
    private Duration metadataCacheTtl = new Duration(30, MINUTES);
    private DataSize parquetFooterCacheMaxSize = DataSize.of(64, MEGABYTE);
    private boolean twoPassMergeReadEnabled;
    private boolean compactionOnWorkersEnabled = true;
    private boolean compactionOnWriteEnabled = true;

    @NotNull
    public CatalogType getCatalogType()
    {
        return catalogType;
    }

    @Config("paimon.catalog.type")
    @ConfigDescription("Where databases and tables are registered: FILESYSTEM (a warehouse folder), HIVE_METASTORE, JDBC or REST")
    public PaimonConfig setCatalogType(CatalogType catalogType)
    {
        this.catalogType = catalogType;
        return this;
    }

    public String getWarehouse()
    {
        return warehouse;
    }

    @Config("paimon.warehouse")
    @ConfigDescription("Location of the Paimon warehouse, with a scheme, e.g. local:///warehouse or s3://bucket/warehouse")
    public PaimonConfig setWarehouse(String warehouse)
    {
        this.warehouse = warehouse;
        return this;
    }

    // a REST server gives each table's location; every other catalog type keeps its tables under the warehouse
    @AssertTrue(message = "paimon.warehouse is required unless paimon.catalog.type is REST")
    public boolean isWarehousePresent()
    {
        return warehouse != null || catalogType == CatalogType.REST;
    }

    // A location without a scheme would be routed to the HDFS loader, which this connector does not ship
    @AssertTrue(message = "paimon.warehouse must be a location with a scheme, e.g. local:///warehouse or s3://bucket/warehouse")
    public boolean isWarehouseSchemeValid()
    {
        if (warehouse == null) {
            return true;
        }
        int colon = warehouse.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        try {
            return URI.create(warehouse).getScheme() != null;
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }

    @NotNull
    public DataSize getMaxWriteBufferSize()
    {
        return maxWriteBufferSize;
    }

    @Config("paimon.max-write-buffer-size")
    @ConfigDescription("Most memory one writer task buffers before writing sorted runs; a table's smaller write-buffer-size wins")
    public PaimonConfig setMaxWriteBufferSize(DataSize maxWriteBufferSize)
    {
        this.maxWriteBufferSize = maxWriteBufferSize;
        return this;
    }

    @NotNull
    public Duration getDynamicFilteringWaitTimeout()
    {
        return dynamicFilteringWaitTimeout;
    }

    @Config("paimon.dynamic-filtering.wait-timeout")
    @ConfigDescription("Longest time split planning waits for a join's dynamic filters before it plans without them")
    public PaimonConfig setDynamicFilteringWaitTimeout(Duration dynamicFilteringWaitTimeout)
    {
        this.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        return this;
    }

    @NotNull
    public DataSize getMaxSplitSize()
    {
        return maxSplitSize;
    }

    @Config("paimon.max-split-size")
    @ConfigDescription("A bucket larger than this is read as several splits, cut between its sections of overlapping key ranges")
    public PaimonConfig setMaxSplitSize(DataSize maxSplitSize)
    {
        this.maxSplitSize = maxSplitSize;
        return this;
    }

    @NotNull
    public Duration getExpireSnapshotsMinRetention()
    {
        return expireSnapshotsMinRetention;
    }

    @Config("paimon.expire-snapshots.min-retention")
    @ConfigDescription("Smallest retention_threshold that expire_snapshots accepts")
    public PaimonConfig setExpireSnapshotsMinRetention(Duration expireSnapshotsMinRetention)
    {
        this.expireSnapshotsMinRetention = expireSnapshotsMinRetention;
        return this;
    }

    @NotNull
    public Duration getRemoveOrphanFilesMinRetention()
    {
        return removeOrphanFilesMinRetention;
    }

    @Config("paimon.remove-orphan-files.min-retention")
    @ConfigDescription("Smallest retention_threshold that remove_orphan_files accepts")
    public PaimonConfig setRemoveOrphanFilesMinRetention(Duration removeOrphanFilesMinRetention)
    {
        this.removeOrphanFilesMinRetention = removeOrphanFilesMinRetention;
        return this;
    }

    @NotNull
    public DataSize getMetadataCacheMaxSize()
    {
        return metadataCacheMaxSize;
    }

    @Config("paimon.metadata-cache.max-size")
    @ConfigDescription("Most heap the cache of decoded snapshots, schemas and manifests may hold, estimated; 0 turns the cache off")
    public PaimonConfig setMetadataCacheMaxSize(DataSize metadataCacheMaxSize)
    {
        this.metadataCacheMaxSize = metadataCacheMaxSize;
        return this;
    }

    @NotNull
    public Duration getMetadataCacheTtl()
    {
        return metadataCacheTtl;
    }

    @Config("paimon.metadata-cache.ttl")
    @ConfigDescription("How long a decoded metadata file stays in the metadata cache after it was read; 0s turns the cache off")
    public PaimonConfig setMetadataCacheTtl(Duration metadataCacheTtl)
    {
        this.metadataCacheTtl = metadataCacheTtl;
        return this;
    }

    @NotNull
    public DataSize getParquetFooterCacheMaxSize()
    {
        return parquetFooterCacheMaxSize;
    }

    @Config("paimon.parquet-footer-cache.max-size")
    @ConfigDescription("Most heap the cache of Parquet data files' footers may hold (Trino 483 and newer, whose Parquet reader offers the cache); 0 turns it off")
    public PaimonConfig setParquetFooterCacheMaxSize(DataSize parquetFooterCacheMaxSize)
    {
        this.parquetFooterCacheMaxSize = parquetFooterCacheMaxSize;
        return this;
    }

    public boolean isTwoPassMergeReadEnabled()
    {
        return twoPassMergeReadEnabled;
    }

    @Config("paimon.two-pass-merge-read.enabled")
    @ConfigDescription("In a merged read of a deduplicate or first-row table's Parquet files, read the keys first and decode the value columns only at the rows the merge returns")
    public PaimonConfig setTwoPassMergeReadEnabled(boolean twoPassMergeReadEnabled)
    {
        this.twoPassMergeReadEnabled = twoPassMergeReadEnabled;
        return this;
    }

    public boolean isCompactionOnWorkersEnabled()
    {
        return compactionOnWorkersEnabled;
    }

    @Config("paimon.compaction-on-workers.enabled")
    @ConfigDescription("Compact the buckets an INSERT, CREATE TABLE AS or row change writes in the page sinks that wrote them, on the workers, instead of on the coordinator after the commit")
    public PaimonConfig setCompactionOnWorkersEnabled(boolean compactionOnWorkersEnabled)
    {
        this.compactionOnWorkersEnabled = compactionOnWorkersEnabled;
        return this;
    }

    public boolean isCompactionOnWriteEnabled()
    {
        return compactionOnWriteEnabled;
    }

    @Config("paimon.compaction-on-write.enabled")
    @ConfigDescription("Compact the buckets a write reaches, as Paimon's writers do; false writes as Paimon's write-only writers do, for tables another job compacts")
    public PaimonConfig setCompactionOnWriteEnabled(boolean compactionOnWriteEnabled)
    {
        this.compactionOnWriteEnabled = compactionOnWriteEnabled;
        return this;
    }
}
