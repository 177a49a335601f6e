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

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Names of the files one writer creates, {@code <prefix><uuid>-<n>} as Paimon names them: one random UUID per
 * writer and a counter, so names never collide across writers.
 * <p>
 * The writers of a statement's tasks take the first half of their UUID from the statement's commit identifier (see
 * {@link #ofStatement}): under fault-tolerant execution a task may run several times, and the coordinator must find
 * the files of the attempts it does not commit. The names stay Paimon's, a UUID being a UUID.
 */
public final class MetadataFileNames
{
    private static final String[] WRITTEN_FILE_PREFIXES = {"data-", "changelog-", "index-"};

    private final String uuid;
    private final AtomicLong counter = new AtomicLong();

    public MetadataFileNames()
    {
        this(UUID.randomUUID());
    }

    private MetadataFileNames(UUID uuid)
    {
        this.uuid = uuid.toString();
    }

    /** Names for one writer of a statement: the statement's part of the UUID, then a random part of the writer's own. */
    public static MetadataFileNames ofStatement(String commitIdentifier)
    {
        return new MetadataFileNames(new UUID(statementUuid(commitIdentifier).getMostSignificantBits(), UUID.randomUUID().getLeastSignificantBits()));
    }

    /** Whether a data, changelog or index file was named by a writer of the statement of this commit identifier. */
    public static boolean isOfStatement(String fileName, String commitIdentifier)
    {
        // the first three groups of a UUID's text are its most significant half
        String statementPart = statementUuid(commitIdentifier).toString().substring(0, 19);
        for (String prefix : WRITTEN_FILE_PREFIXES) {
            if (fileName.startsWith(prefix) && fileName.startsWith(statementPart, prefix.length())) {
                return true;
            }
        }
        return false;
    }

    private static UUID statementUuid(String commitIdentifier)
    {
        try {
            return UUID.fromString(commitIdentifier);
        }
        catch (IllegalArgumentException e) {
            // identifiers are ours and always UUIDs; a foreign one still gets a stable statement part
            return UUID.nameUUIDFromBytes(commitIdentifier.getBytes(UTF_8));
        }
    }

    public String manifest()
    {
        return next("manifest-");
    }

    public String manifestList()
    {
        return next("manifest-list-");
    }

    public String indexManifest()
    {
        return next("index-manifest-");
    }

    public String indexFile()
    {
        return next("index-");
    }

    /** A data file: {@code data-<uuid>-<n>.<format>}, the format being the file's extension. */
    public String dataFile(String format)
    {
        return next("data-") + "." + format;
    }

    /** A changelog file: {@code changelog-<uuid>-<n>.<format>}, numbered with the data files of the same writer. */
    public String changelogFile(String format)
    {
        return next("changelog-") + "." + format;
    }

    private String next(String prefix)
    {
        return prefix + uuid + "-" + counter.getAndIncrement();
    }
}
