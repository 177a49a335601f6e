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
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;

/**
 * Reading and atomically creating the small metadata files of a table (schemas, snapshots, hints).
 */
public final class MetadataFiles
{
    // files up to this length, as their metadata gives it, are read into an array of that length
    private static final long EXACT_READ_LIMIT = 64L * 1024 * 1024;
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
                .orElseThrow(() -> missing(location, null));
    }

    /**
     * The file, which its metadata says holds {@code expectedLength} bytes, read into an array of that size (a manifest
     * is read whole, so this saves the copies of reading to the end).
     *
     * @throws InvalidMetadataException when the file is shorter or longer
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it does not exist
     */
    public static byte[] readFile(TrinoFileSystem fileSystem, Location location, long expectedLength)
    {
        if (expectedLength < 0 || expectedLength > EXACT_READ_LIMIT) {
            // the length comes from metadata: a large one is not trusted with an allocation before the bytes are there
            byte[] content = readFile(fileSystem, location);
            if (content.length != expectedLength) {
                throw new InvalidMetadataException("file has %s bytes, its metadata says %s".formatted(content.length, expectedLength));
            }
            return content;
        }
        try (InputStream input = fileSystem.newInputFile(location).newStream()) {
            byte[] content = new byte[(int) expectedLength];
            int read = input.readNBytes(content, 0, content.length);
            if (read < content.length) {
                throw new InvalidMetadataException("file has %s bytes, its metadata says %s".formatted(read, expectedLength));
            }
            if (input.read() >= 0) {
                throw new InvalidMetadataException("file has more than %s bytes, its metadata says %s".formatted(expectedLength, expectedLength));
            }
            return content;
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            throw missing(location, e);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read " + location, e);
        }
    }

    // snapshots, manifest lists, manifests and index files go when their snapshots expire, possibly under a running
    // statement (another engine's expiry does not wait for it): the message says so, as a missing data file's does
    private static TrinoException missing(Location location, Exception cause)
    {
        String path = location.path();
        boolean expires = path.contains("/snapshot/snapshot-") || path.contains("/manifest/") || path.contains("/index/") || path.contains("/changelog/");
        String message = "Paimon metadata file is missing: " + location + (expires ? " (its snapshot may have expired while the query ran)" : "");
        return new TrinoException(PAIMON_INVALID_METADATA, message, cause);
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
     * where the file system has one (S3 with {@code s3.exclusive-create}, a conditional PUT; GCS; Azure), else, on
     * the local file system only, a temporary file renamed onto the target when the target does not exist (Paimon
     * Java's own protocol on file systems). The check and the rename are two steps, so there writers in this
     * process take turns per target; writers in other processes need Paimon's catalog lock, as they do with Paimon
     * Java. Any other file system without an exclusive create is refused: object stores cannot rename, and a
     * check followed by a plain write would let two writers both publish.
     *
     * @return false when the file already existed
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} when the file system offers no exclusive create
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
            // no exclusive create here: fall through to write-then-rename where renames are real
            if (!renamePublishes(location)) {
                throw noExclusiveCreate(location, e);
            }
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

    /**
     * Checks, before a statement writes anything, that {@link #createAtomically} can publish in the folder of an
     * existing metadata file that never changes once written (a schema file): the file is created again,
     * exclusively, with its own content. A store that honours the condition refuses; one that ignores it (some
     * S3-compatible stores accept {@code If-None-Match} and overwrite anyway) rewrites identical bytes, which no
     * reader can tell apart, and the write is refused, since such a store would let two commits both take one
     * snapshot id.
     *
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} naming the file and what to configure when
     * commits there would not be exclusive; {@code PAIMON_FILESYSTEM_ERROR} when the check itself fails
     */
    public static void checkExclusiveCreate(TrinoFileSystem fileSystem, Location immutableFile)
    {
        byte[] content = readFile(fileSystem, immutableFile);
        try {
            fileSystem.newOutputFile(immutableFile).createExclusive(content);
        }
        catch (FileAlreadyExistsException e) {
            return;
        }
        catch (UnsupportedOperationException e) {
            if (renamePublishes(immutableFile)) {
                return;
            }
            throw noExclusiveCreate(immutableFile, e);
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Writes to %s are refused: an exclusive create of the existing file %s, which must be refused with 'already exists', failed otherwise: %s. Does the store support conditional writes (If-None-Match)?".formatted(
                    immutableFile.parentDirectory().parentDirectory(), immutableFile, e.getMessage()), e);
        }
        throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, ("Writes to %s are refused: the store accepted an exclusive create of the existing file %s (rewritten with its own content), " +
                "so it ignores conditional writes (If-None-Match) and two commits could both publish one snapshot. Use a store that honours them, or write with Paimon's catalog lock elsewhere").formatted(
                immutableFile.parentDirectory().parentDirectory(), immutableFile));
    }

    // Only the local file system renames a file as one step; S3 has no rename at all, and elsewhere it is a copy
    private static boolean renamePublishes(Location location)
    {
        return location.scheme().map(scheme -> scheme.equals("local") || scheme.equals("file")).orElse(false);
    }

    private static TrinoException noExclusiveCreate(Location location, UnsupportedOperationException cause)
    {
        return new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, ("Cannot publish %s: its file system cannot create a file only if it is absent, and without that two writers could both commit it. " +
                "For S3, set s3.exclusive-create=true (the default) in the catalog, on a store that supports conditional writes (If-None-Match)").formatted(location), cause);
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
