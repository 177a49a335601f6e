package io.trino.plugin.paimon.write;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import org.apache.parquet.format.CompressionCodec;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Creates the data files of one page sink, named as Paimon names them ({@code data-<uuid>-<n>.parquet}, one uuid per
 * sink), and remembers every file it created so that an abort deletes exactly those.
 */
final class DataFiles
{
    private final TrinoFileSystem fileSystem;
    private final DataFileLayout layout;
    private final long schemaId;
    private final CompressionCodec compression;
    private final MetadataFileNames names = new MetadataFileNames();
    private final List<Location> created = new ArrayList<>();

    DataFiles(TrinoFileSystem fileSystem, DataFileLayout layout, long schemaId, CompressionCodec compression)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.schemaId = schemaId;
        this.compression = requireNonNull(compression, "compression is null");
    }

    synchronized KeyValueFileWriter create(Location bucketDirectory)
    {
        Location location = bucketDirectory.appendPath(names.dataFile("parquet"));
        created.add(location);
        return new KeyValueFileWriter(fileSystem, location, layout, schemaId, compression);
    }

    synchronized List<Location> created()
    {
        return List.copyOf(created);
    }

    TrinoFileSystem fileSystem()
    {
        return fileSystem;
    }
}
