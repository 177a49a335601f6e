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

import com.google.common.collect.ImmutableMap;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

final class TestPaimonConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(PaimonConfig.class)
                .setCatalogType(CatalogType.FILESYSTEM)
                .setWarehouse(null)
                .setMaxWriteBufferSize(DataSize.of(256, MEGABYTE))
                .setDynamicFilteringWaitTimeout(new Duration(1, SECONDS))
                .setMaxSplitSize(DataSize.of(128, MEGABYTE))
                .setExpireSnapshotsMinRetention(new Duration(7, DAYS))
                .setRemoveOrphanFilesMinRetention(new Duration(7, DAYS))
                .setMetadataCacheMaxSize(DataSize.of(256, MEGABYTE))
                .setMetadataCacheTtl(new Duration(30, MINUTES))
                .setParquetFooterCacheMaxSize(DataSize.of(64, MEGABYTE))
                .setTwoPassMergeReadEnabled(false)
                .setCompactionOnWorkersEnabled(true)
                .setCompactionOnWriteEnabled(true));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "JDBC")
                .put("paimon.warehouse", "s3://bucket/warehouse")
                .put("paimon.max-write-buffer-size", "64MB")
                .put("paimon.dynamic-filtering.wait-timeout", "20s")
                .put("paimon.max-split-size", "32MB")
                .put("paimon.expire-snapshots.min-retention", "3d")
                .put("paimon.remove-orphan-files.min-retention", "12h")
                .put("paimon.metadata-cache.max-size", "16MB")
                .put("paimon.metadata-cache.ttl", "5m")
                .put("paimon.parquet-footer-cache.max-size", "8MB")
                .put("paimon.two-pass-merge-read.enabled", "true")
                .put("paimon.compaction-on-workers.enabled", "false")
                .put("paimon.compaction-on-write.enabled", "false")
                .buildOrThrow();
        PaimonConfig expected = new PaimonConfig()
                .setCatalogType(CatalogType.JDBC)
                .setWarehouse("s3://bucket/warehouse")
                .setMaxWriteBufferSize(DataSize.of(64, MEGABYTE))
                .setDynamicFilteringWaitTimeout(new Duration(20, SECONDS))
                .setMaxSplitSize(DataSize.of(32, MEGABYTE))
                .setExpireSnapshotsMinRetention(new Duration(3, DAYS))
                .setRemoveOrphanFilesMinRetention(new Duration(12, HOURS))
                .setMetadataCacheMaxSize(DataSize.of(16, MEGABYTE))
                .setMetadataCacheTtl(new Duration(5, MINUTES))
                .setParquetFooterCacheMaxSize(DataSize.of(8, MEGABYTE))
                .setTwoPassMergeReadEnabled(true)
                .setCompactionOnWorkersEnabled(false)
                .setCompactionOnWriteEnabled(false);
        assertFullMapping(properties, expected);
    }

    @Test
    void warehouseNeedsAScheme()
    {
        assertThat(new PaimonConfig().setWarehouse("local:///warehouse").isWarehouseSchemeValid()).isTrue();
        assertThat(new PaimonConfig().setWarehouse("s3://bucket/path").isWarehouseSchemeValid()).isTrue();
        assertThat(new PaimonConfig().setWarehouse("/data/warehouse").isWarehouseSchemeValid()).isFalse();
        assertThat(new PaimonConfig().setWarehouse("warehouse").isWarehouseSchemeValid()).isFalse();
    }
}
