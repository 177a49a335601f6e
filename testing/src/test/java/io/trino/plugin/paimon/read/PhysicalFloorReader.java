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
package io.trino.plugin.paimon.read;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.Page;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The physical floor of a bucket read, for the benchmarks: every record of every file of a split decoded by the
 * same file reader the page source uses (Parquet, ORC or Avro; sequence number, row kind and every value column, the
 * key read with the value columns as the page source reads it), with no merge. Lives in the read package to reach the package-private file reader; not part of the connector.
 */
public final class PhysicalFloorReader
{
    private final TrinoFileSystem fileSystem;
    private final SchemaFiles schemaFiles;
    private final TypeMapping typeMapping;

    public PhysicalFloorReader(TrinoFileSystem fileSystem, Location tableLocation, TypeMapping typeMapping)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.schemaFiles = new SchemaFiles(fileSystem, requireNonNull(tableLocation, "tableLocation is null"));
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
    }

    /**
     * Hands every decoded page of the split's files to the consumer; its channels are the trimmed key columns,
     * {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then the table's columns. Returns the records read.
     */
    public long read(PaimonSplit split, Consumer<Page> consumer)
    {
        long records = 0;
        // schemas read once per split, as the page source does
        Map<Long, TableSchema> schemas = new HashMap<>();
        for (PaimonDataFile file : split.files()) {
            TableSchema schema = schemas.computeIfAbsent(file.schemaId(), schemaFiles::readSchema);
            List<ReadColumn> keyColumns = schema.primaryKeys().stream()
                    .filter(key -> !schema.partitionKeys().contains(key))
                    .map(key -> schema.field(key).orElseThrow())
                    .map(this::readColumn)
                    .toList();
            List<ReadColumn> valueColumns = schema.fields().stream().map(this::readColumn).toList();
            try (DataFilePageReader reader = DataFilePageReader.open(fileSystem, file, schema, keyColumns, true, valueColumns, RowGroupDomains.NONE, ParquetReaderOptions.defaultOptions(), ParquetFooterReader.UNCACHED)) {
                Page page;
                while ((page = reader.nextPage()) != null) {
                    records += page.getPositionCount();
                    consumer.accept(page);
                }
            }
        }
        return records;
    }

    private ReadColumn readColumn(DataField field)
    {
        return new ReadColumn(field.id(), typeMapping.toTrinoType(field));
    }
}
