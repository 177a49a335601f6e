package io.trino.plugin.paimon.table;

import java.util.Map;

import static io.trino.plugin.paimon.table.TableOptions.parseInteger;
import static io.trino.plugin.paimon.table.TableOptions.parseMemorySize;

/**
 * The options that bound how many manifests a snapshot lists, with Paimon's defaults (CoreOptions):
 * {@code manifest.target-file-size} (8 MB), {@code manifest.merge-min-count} (30) and
 * {@code manifest.full-compaction-threshold-size} (16 MB).
 */
public record ManifestOptions(long targetFileSize, int mergeMinCount, long fullCompactionThresholdSize)
{
    public static ManifestOptions of(String tableName, Map<String, String> options)
    {
        return new ManifestOptions(
                parseMemorySize(tableName, "manifest.target-file-size", options.getOrDefault("manifest.target-file-size", "8 mb")),
                parseInteger(tableName, "manifest.merge-min-count", options.getOrDefault("manifest.merge-min-count", "30")),
                parseMemorySize(tableName, "manifest.full-compaction-threshold-size", options.getOrDefault("manifest.full-compaction-threshold-size", "16 mb")));
    }
}
