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

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.CompactionOptions;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.plugin.paimon.table.TableOptions.ChangelogProducer;
import io.trino.plugin.paimon.table.UnsupportedOptions;
import io.trino.spi.TrinoException;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.booleanOption;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The tables this connector cannot write yet, refused before any file is written, each with the option that makes
 * it so.
 */
public final class WriteRestrictions
{
    private WriteRestrictions() {}

    public static void checkInsertable(String tableName, TableSchema schema, TableOptions options)
    {
        // what reads refuse too, with the same message
        UnsupportedOptions.check(tableName, options.options());
        boolean primaryKeyTable = !schema.primaryKeys().isEmpty();
        if (options.bucket() == TableOptions.POSTPONE_BUCKET) {
            throw refuse(tableName, "the table has postpone buckets ('bucket' = '-2')");
        }
        if (options.bucket() < TableOptions.POSTPONE_BUCKET || options.bucket() == 0) {
            throw refuse(tableName, "option 'bucket' = '%s' is not valid".formatted(options.bucket()));
        }
        if (primaryKeyTable && !schema.primaryKeys().containsAll(schema.partitionKeys())) {
            throw refuse(tableName, "the primary key %s does not contain every partition key %s (cross-partition upsert)".formatted(schema.primaryKeys(), schema.partitionKeys()));
        }
        if (primaryKeyTable && options.changelogProducer() != ChangelogProducer.NONE && options.options().containsKey("changelog-file.stats-mode")) {
            // changelog files are written with the data files' statistics
            throw refuse(tableName, "option 'changelog-file.stats-mode' is set (changelog files are written with the data files' statistics)");
        }
        // every format and codec a write may use: those of the levels named per level, the default, the changelog's
        WriteOptions writeOptions = WriteOptions.of(tableName, schema.options(), primaryKeyTable);
        Set<FileWriteFormat.Format> formats = new HashSet<>();
        writeOptions.levelFormats().values().forEach(format -> formats.add(format.format()));
        formats.add(writeOptions.defaultFormat().format());
        formats.add(writeOptions.changelogFormat().format());
        // the names of written files are Paimon's defaults
        if (!options.dataFilePrefix().equals("data-")
                || !options.changelogFilePrefix().equals("changelog-")
                || booleanOption(tableName, options.options(), "file.suffix.include.compression", false)) {
            throw refuse(tableName, "options 'data-file.prefix', 'changelog-file.prefix' and 'file.suffix.include.compression' must keep their defaults");
        }
        String externalPathStrategy = options.dataFileExternalPathsStrategy();
        if (!options.dataFileExternalPaths().isEmpty() && !externalPathStrategy.equalsIgnoreCase("none")) {
            // Paimon would put new files in the external roots by that strategy; ours go to the bucket folders
            throw refuse(tableName, "option 'data-file.external-paths.strategy' = '%s' (new data files would belong in the external paths)".formatted(externalPathStrategy));
        }
        for (String option : List.of("row-tracking.enabled", "data-evolution.enabled", "index-file-in-data-file-dir")) {
            if (booleanOption(tableName, options.options(), option, false)) {
                throw refuse(tableName, "option '%s' = 'true'".formatted(option));
            }
        }
        for (FileWriteFormat.Format format : formats) {
            for (DataField field : schema.fields()) {
                FileWriteFormat.checkWritable(tableName, format, field);
            }
        }
        // the options that route and order rows must name columns (Paimon checks the same when it loads a table)
        for (String field : options.sequenceFields()) {
            if (schema.field(field).isEmpty()) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: Sequence field: '%s' can not be found in table schema.".formatted(tableName, field));
            }
        }
        if (options.bucket() > 0) {
            for (String field : options.bucketKey()) {
                if (schema.field(field).isEmpty()) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option 'bucket-key' names %s, which is not a column".formatted(tableName, field));
                }
            }
            if (options.bucketFunctionType() == TableOptions.BucketFunctionType.MOD && options.bucketKey().size() != 1) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: 'bucket-function.type' = 'mod' needs a single bucket key column, not %s".formatted(tableName, options.bucketKey()));
            }
        }
    }

    /**
     * Refuses a write to a deletion-vector or first-row table that would not be compacted on write: Paimon's batch
     * reads of those tables skip level-0 files, which is all a write produces until the compaction after it moves
     * them up, so the rows would be committed unseen.
     *
     * @param compactionOnWrite whether the statement's session lets writes compact
     */
    public static void checkCompactedOnWrite(String tableName, TableSchema schema, TableOptions options, boolean compactionOnWrite)
    {
        if (schema.primaryKeys().isEmpty() || !options.batchScanSkipsLevelZero()) {
            return;
        }
        String kind = options.deletionVectorsEnabled() ? "option 'deletion-vectors.enabled' = 'true'" : "option 'merge-engine' = 'first-row'";
        String reason = "with %s Paimon reads the table without its level-0 files, which is all a write produces until the compaction after it, and ".formatted(kind);
        if (CompactionOptions.of(tableName, schema.options()).writeOnly()) {
            throw refuse(tableName, reason + "option 'write-only' = 'true' turns that compaction off");
        }
        if (!compactionOnWrite) {
            throw refuse(tableName, reason + "session property 'compaction_on_write_enabled' = false turns that compaction off");
        }
        if (options.changelogProducer() == ChangelogProducer.FULL_COMPACTION) {
            throw refuse(tableName, reason + "option 'changelog-producer' = 'full-compaction' needs changelog files this compaction does not write");
        }
    }

    private static TrinoException refuse(String tableName, String reason)
    {
        return new TrinoException(NOT_SUPPORTED, "Cannot write to Paimon table %s: %s".formatted(tableName, reason));
    }
}
