package io.trino.plugin.paimon.format;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoOutputFile;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import java.util.UUID;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;

/**
 * Reading and atomically creating the small metadata files of a table (schemas, snapshots, hints).
 */
public final class MetadataFiles
{
    // stripes of the in-process lock of check-then-rename creates, by target location
    private static final Object[] RENAME_LOCKS = new Object[64];

    static {
        for (int i = 0; i < RENAME_LOCKS.length; i++) {
            RENAME_LOCKS[i] = new Object();
        }
    }

    private MetadataFiles() {}

    /**
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it does not exist
     */
    public static byte[] readFile(TrinoFileSystem fileSystem, Location location)
    {
        return readIfExists(fileSystem, location)
                .orElseThrow(() -> new TrinoException(PAIMON_INVALID_METADATA, "Paimon metadata file is missing: " + location));
    }

    public static Optional<byte[]> readIfExists(TrinoFileSystem fileSystem, Location location)
    {
        TrinoInputFile inputFile = fileSystem.newInputFile(location);
        try (InputStream input = inputFile.newStream()) {
            return Optional.of(input.readAllBytes());
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read " + location, e);
        }
    }

    public static boolean exists(TrinoFileSystem fileSystem, Location location)
    {
        try {
            return fileSystem.newInputFile(location).exists();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to check " + location, e);
        }
    }

    /**
     * Creates the file with the content unless it exists, in one step visible to readers: an exclusive create
     * where the file system has one (S3, GCS, Azure), else a temporary file renamed onto the target when the
     * target does not exist (Paimon Java's own protocol on file systems). The check and the rename are two steps,
     * so on such file systems (the local one) writers in this process take turns per target; writers in other
     * processes need Paimon's catalog lock there, as they do with Paimon Java.
     *
     * @return false when the file already existed
     */
    public static boolean createAtomically(TrinoFileSystem fileSystem, Location location, byte[] content)
    {
        TrinoOutputFile outputFile = fileSystem.newOutputFile(location);
        try {
            outputFile.createExclusive(content);
            return true;
        }
        catch (FileAlreadyExistsException e) {
            return false;
        }
        catch (UnsupportedOperationException e) {
            // no exclusive create here: fall through to write-then-rename
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to create " + location, e);
        }

        Location temporary = location.parentDirectory().appendPath(".%s.%s.tmp".formatted(location.fileName(), UUID.randomUUID()));
        try {
            fileSystem.newOutputFile(temporary).createOrOverwrite(content);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write " + temporary, e);
        }
        Object lock = RENAME_LOCKS[Math.floorMod(location.toString().hashCode(), RENAME_LOCKS.length)];
        synchronized (lock) {
            return renameUnlessExists(fileSystem, temporary, location);
        }
    }

    private static boolean renameUnlessExists(TrinoFileSystem fileSystem, Location temporary, Location location)
    {
        try {
            if (exists(fileSystem, location)) {
                deleteQuietly(fileSystem, temporary);
                return false;
            }
            fileSystem.renameFile(temporary, location);
            return true;
        }
        catch (IOException e) {
            deleteQuietly(fileSystem, temporary);
            if (exists(fileSystem, location)) {
                // another writer won the race
                return false;
            }
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to create " + location, e);
        }
    }

    /** Writes or replaces a file whose content readers only take as a hint (LATEST, EARLIEST). */
    public static void overwrite(TrinoFileSystem fileSystem, Location location, byte[] content)
    {
        try {
            fileSystem.newOutputFile(location).createOrOverwrite(content);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to write " + location, e);
        }
    }

    private static void deleteQuietly(TrinoFileSystem fileSystem, Location location)
    {
        try {
            fileSystem.deleteFile(location);
        }
        catch (IOException _) {
            // a leftover temporary file is harmless: readers never list dot files
        }
    }
}
