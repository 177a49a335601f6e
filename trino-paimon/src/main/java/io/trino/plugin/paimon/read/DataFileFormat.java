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
import io.trino.spi.TrinoException;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_BAD_DATA;

/**
 * The formats Paimon writes data files in, each known by the extension Paimon gives its files
 * ({@code data-<uuid>-<n>.<format>}; with {@code file.suffix.include.compression} the codec comes before it).
 */
enum DataFileFormat
{
    PARQUET,
    ORC,
    AVRO;

    static DataFileFormat of(Location location)
    {
        String name = location.fileName();
        if (name.endsWith(".parquet")) {
            return PARQUET;
        }
        if (name.endsWith(".orc")) {
            return ORC;
        }
        if (name.endsWith(".avro")) {
            return AVRO;
        }
        throw new TrinoException(PAIMON_BAD_DATA, "Paimon data file %s: unknown format (expected a .parquet, .orc or .avro file)".formatted(location));
    }
}
