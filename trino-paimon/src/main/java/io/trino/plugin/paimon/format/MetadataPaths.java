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
import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;

/**
 * Locations built from names and paths that metadata files hold. Metadata is untrusted input: a manifest that names
 * {@code ../../other-table/bucket-0/data.parquet} or {@code /etc/hostname} must not make a query open it. File names
 * must be plain names inside the folder their kind lives in; an absolute path (a file Paimon wrote to an external
 * path) must lie under the table's location or one of the external roots its options name.
 */
public final class MetadataPaths
{
    private MetadataPaths() {}

    /**
     * @param kind what the name is, for the error: "data file", "manifest", …
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} when the name is not a plain file name
     */
    public static Location child(Location directory, String fileName, String kind)
    {
        if (fileName.isEmpty() || fileName.equals(".") || fileName.equals("..") || fileName.indexOf('/') >= 0 || fileName.indexOf('\\') >= 0 || fileName.indexOf(':') >= 0) {
            throw escapes(kind, fileName, directory);
        }
        return directory.appendPath(fileName);
    }

    /**
     * @param roots the locations the file may lie under
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} when the path lies outside every root
     */
    public static Location absolute(String path, List<Location> roots, String kind)
    {
        Location location;
        try {
            location = Location.of(path);
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid %s path in metadata: %s".formatted(kind, path), e);
        }
        String filePath = location.path();
        if (filePath.equals("..") || filePath.startsWith("../") || filePath.contains("/../") || filePath.endsWith("/..") || filePath.contains("/./") || filePath.contains("//")) {
            throw escapes(kind, path, roots.getFirst());
        }
        for (Location root : roots) {
            if (sameStore(location, root) && (root.path().isEmpty() || filePath.startsWith(root.path() + "/"))) {
                return location;
            }
        }
        throw escapes(kind, path, roots.getFirst());
    }

    // Paimon writes local paths as file:/…, Trino's local file system names them local:///…
    private static boolean sameStore(Location location, Location root)
    {
        return localScheme(location.scheme()).equals(localScheme(root.scheme())) && location.host().equals(root.host()) && location.port().equals(root.port());
    }

    private static Optional<String> localScheme(Optional<String> scheme)
    {
        return scheme.filter(value -> !value.equals("file") && !value.equals("local"));
    }

    private static TrinoException escapes(String kind, String name, Location directory)
    {
        return new TrinoException(PAIMON_INVALID_METADATA, "File path escapes table location: %s '%s' is not inside %s".formatted(kind, name, directory));
    }
}
