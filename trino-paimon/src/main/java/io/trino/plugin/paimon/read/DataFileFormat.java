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
