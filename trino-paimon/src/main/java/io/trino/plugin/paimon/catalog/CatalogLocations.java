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

import io.trino.filesystem.Location;
import io.trino.spi.TrinoException;

import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static java.lang.Boolean.parseBoolean;
import static java.util.Objects.requireNonNull;

/**
 * Turns the locations a catalog service hands over (a REST server's table and database paths, a metastore's location
 * URIs) into locations Trino's file systems open. Paimon reads a path without a scheme, such as
 * {@code /data/warehouse/db.db/t}, as a local file; Trino's file systems need a scheme, so such a path is mapped onto
 * Trino's local file system ({@code local:///…}, relative to its {@code local.location}) when the catalog enables it.
 *
 * @param localRoot {@code local.location} when {@code fs.native-local.enabled} is on
 */
public record CatalogLocations(Optional<String> localRoot)
{
    public static final CatalogLocations NO_LOCAL_FILE_SYSTEM = new CatalogLocations(Optional.empty());

    public CatalogLocations
    {
        requireNonNull(localRoot, "localRoot is null");
    }

    /** From the catalog's properties: the keys of Trino's file system configuration. */
    public static CatalogLocations fromCatalogProperties(Map<String, String> properties)
    {
        if (!parseBoolean(properties.getOrDefault("fs.native-local.enabled", "false").trim())) {
            return NO_LOCAL_FILE_SYSTEM;
        }
        return new CatalogLocations(Optional.ofNullable(properties.get("local.location")).map(String::trim));
    }

    /** Whether {@link #resolve} takes the location: it has a scheme, or it is a path the local file system holds. */
    public boolean opens(String location)
    {
        if (Location.of(location).scheme().isPresent()) {
            return true;
        }
        return location.startsWith("/") && localRoot.isPresent() && isUnder(location, rootPath());
    }

    /**
     * @param owner what the location belongs to, for errors: {@code table db.t}, {@code database db}
     * @throws TrinoException {@code PAIMON_UNSUPPORTED_CONFIGURATION} when the path has no scheme and the local file
     * system is off, or does not hold it
     */
    public Location resolve(String owner, String location)
    {
        Location parsed = Location.of(location);
        if (parsed.scheme().isPresent()) {
            return parsed;
        }
        if (!location.startsWith("/")) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "The catalog gives %s the location '%s', a relative path without a scheme, which names no file system".formatted(owner, location));
        }
        if (localRoot.isEmpty()) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, ("The catalog gives %s the location '%s', a path without a scheme, which Paimon reads as a local path: " +
                    "set fs.native-local.enabled=true and local.location to a folder that holds it (such as /) in the catalog's properties").formatted(owner, location));
        }
        String root = rootPath();
        if (!isUnder(location, root)) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, ("The catalog gives %s the location '%s', a local path outside local.location '%s' of the catalog's local file system: " +
                    "set local.location to a folder that holds it (such as /)").formatted(owner, location, localRoot.get()));
        }
        return Location.of("local:///" + location.substring(root.length()).replaceFirst("^/+", ""));
    }

    private String rootPath()
    {
        return localRoot.orElseThrow().replaceAll("/+$", "");
    }

    private static boolean isUnder(String location, String root)
    {
        return root.isEmpty() || location.equals(root) || location.startsWith(root + "/");
    }
}
