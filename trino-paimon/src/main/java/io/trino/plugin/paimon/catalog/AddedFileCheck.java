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
package io.trino.plugin.paimon.catalog;

import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.TrinoException;

import java.util.List;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_DATA_FILE;
import static java.util.Objects.requireNonNull;

/**
 * The last check of a commit: every file it adds must carry a partition and key statistics that readers can use.
 * A key row of the wrong arity, a NULL in a NOT NULL key or partition field, or a key that does not decode would
 * publish a file on which every reader, ours and Paimon's, fails, so the table could only be dropped; the commit
 * refuses the file instead, before it writes anything.
 */
final class AddedFileCheck
{
    private final String tableName;
    private final List<DataField> partitionFields;
    private final List<DataField> keyFields;

    AddedFileCheck(String tableName, TableSchema schema)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.partitionFields = schema.partitionFields();
        this.keyFields = schema.primaryKeys().isEmpty() ? List.of() : schema.trimmedPrimaryKeyFields();
    }

    void check(List<ManifestEntry> entries)
    {
        for (ManifestEntry entry : entries) {
            if (entry.kind() == FileKind.ADD) {
                check(entry);
            }
        }
    }

    private void check(ManifestEntry entry)
    {
        DataFileMeta file = entry.file();
        checkRow(file, "partition", entry.partition(), partitionFields);
        if (keyFields.isEmpty()) {
            return;
        }
        checkRow(file, "min key", file.minKey(), keyFields);
        checkRow(file, "max key", file.maxKey(), keyFields);
        // statistics without fields say nothing about the key; they are not wrong
        if (file.keyStats().minValues().arity() != 0 || file.keyStats().maxValues().arity() != 0) {
            checkRow(file, "key statistics minimum", file.keyStats().minValues(), keyFields);
            checkRow(file, "key statistics maximum", file.keyStats().maxValues(), keyFields);
        }
        file.keyStats().nullCounts().filter(counts -> !counts.isEmpty()).ifPresent(nullCounts -> {
            if (nullCounts.size() != keyFields.size()) {
                throw invalid(file, "has %s key null counts for %s key fields".formatted(nullCounts.size(), keyFields.size()));
            }
            for (int i = 0; i < keyFields.size(); i++) {
                Long nullCount = nullCounts.get(i);
                if (!keyFields.get(i).type().nullable() && nullCount != null && nullCount != 0) {
                    throw invalid(file, "has %s NULL values in NOT NULL key column %s".formatted(nullCount, keyFields.get(i).name()));
                }
            }
        });
    }

    private void checkRow(DataFileMeta file, String what, BinaryRow row, List<DataField> fields)
    {
        if (row.arity() != fields.size()) {
            throw invalid(file, "has a %s of %s fields, the table has %s".formatted(what, row.arity(), fields.size()));
        }
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            if (row.isNullAt(i)) {
                if (!field.type().nullable()) {
                    throw invalid(file, "has a NULL in NOT NULL column %s of its %s".formatted(field.name(), what));
                }
                continue;
            }
            try {
                row.get(i, field.type());
            }
            catch (RuntimeException e) {
                throw new TrinoException(PAIMON_INVALID_DATA_FILE, "Refusing to commit data file %s to Paimon table %s: column %s of its %s does not decode as %s"
                        .formatted(file.fileName(), tableName, field.name(), what, field.type().asSqlString()), e);
            }
        }
    }

    private TrinoException invalid(DataFileMeta file, String problem)
    {
        return new TrinoException(PAIMON_INVALID_DATA_FILE, "Refusing to commit data file %s to Paimon table %s: it %s".formatted(file.fileName(), tableName, problem));
    }
}
