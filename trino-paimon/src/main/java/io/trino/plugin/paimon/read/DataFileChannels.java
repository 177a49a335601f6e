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

import com.google.common.collect.ImmutableList;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.read.DataFilePageReader.SEQUENCE_NUMBER;
import static io.trino.plugin.paimon.read.DataFilePageReader.VALUE_KIND;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The channels of the pages a data file is read into, the same for every format: each channel's column name in the
 * file, found by field id in the schema the file was written with (so a renamed column is read by its old name), the
 * Trino type it is read as, and the domain its statistics may be pruned by. A value column the file's schema does
 * not have (added later) has no name and reads as nulls.
 * <p>
 * A key channel is read from the table column of the key field, never from its {@code _KEY_} copy: files written
 * with {@code data-file.thin-mode} have no copies, files written without it hold the same values twice, and Paimon's
 * own reader takes the key from the table columns for both (paimon-format.md §7.1). So one bucket may mix both
 * layouts, and a key channel and a value channel of one field name the same column, which the page readers read once.
 */
record DataFileChannels(List<Channel> channels, boolean keyValueFile)
{
    DataFileChannels
    {
        channels = ImmutableList.copyOf(channels);
    }

    /**
     * @param fileName the column's name in the file, empty for a column the file was written without
     * @param fileType the column's type in the file's schema (empty for the system columns and missing columns)
     * @param required whether the file must have the column (the key fields, sequence and kind columns of key-value files)
     */
    record Channel(Optional<String> fileName, Optional<DataType> fileType, Type type, Optional<Domain> domain, boolean required)
    {
        Channel
        {
            requireNonNull(fileName, "fileName is null");
            requireNonNull(fileType, "fileType is null");
            requireNonNull(type, "type is null");
            requireNonNull(domain, "domain is null");
        }
    }

    static DataFileChannels of(Location location, TableSchema fileSchema, List<ReadColumn> keyColumns, boolean keyValueFile, List<ReadColumn> valueColumns, RowGroupDomains domains)
    {
        ImmutableList.Builder<Channel> channels = ImmutableList.builder();
        if (keyValueFile) {
            for (ReadColumn key : keyColumns) {
                DataField field = field(fileSchema, key.fieldId())
                        .orElseThrow(() -> DataFilePageReader.badData(location, "key field %s is missing from the schema of the file".formatted(key.fieldId())));
                channels.add(new Channel(Optional.of(field.name()), Optional.of(field.type()), key.type(), domains.keyDomain(key.fieldId(), field.type()), true));
            }
            channels.add(new Channel(Optional.of(SEQUENCE_NUMBER), Optional.empty(), BIGINT, Optional.empty(), true));
            channels.add(new Channel(Optional.of(VALUE_KIND), Optional.empty(), TINYINT, Optional.empty(), true));
        }
        for (ReadColumn value : valueColumns) {
            Optional<DataField> field = field(fileSchema, value.fieldId());
            channels.add(new Channel(
                    field.map(DataField::name),
                    field.map(DataField::type),
                    value.type(),
                    field.flatMap(fileField -> domains.valueDomain(value.fieldId(), fileField.type())),
                    false));
        }
        return new DataFileChannels(channels.build(), keyValueFile);
    }

    int size()
    {
        return channels.size();
    }

    Channel get(int channel)
    {
        return channels.get(channel);
    }

    private static Optional<DataField> field(TableSchema schema, int fieldId)
    {
        return schema.fields().stream()
                .filter(field -> field.id() == fieldId)
                .findFirst();
    }
}
