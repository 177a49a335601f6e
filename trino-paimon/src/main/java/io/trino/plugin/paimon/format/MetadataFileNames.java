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

/**
 * Names of the files one writer creates, {@code <prefix><uuid>-<n>} as Paimon names them: one random UUID per
 * writer and a counter, so names never collide across writers.
 */
public final class MetadataFileNames
{
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicLong counter = new AtomicLong();

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
