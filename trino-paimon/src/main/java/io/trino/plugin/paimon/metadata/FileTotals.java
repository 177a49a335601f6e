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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.format.manifest.DataFileMeta;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;

/**
 * Record count, size, file count and newest file of a group of data files (a partition, a bucket), as the system
 * tables that summarise files show them.
 */
final class FileTotals
{
    private long records;
    private long bytes;
    private long files;
    private long lastUpdateMillis = Long.MIN_VALUE;

    void add(DataFileMeta file)
    {
        records += file.rowCount();
        bytes += file.fileSize();
        files++;
        if (file.creationTimeMillis().isPresent()) {
            lastUpdateMillis = Math.max(lastUpdateMillis, file.creationTimeMillis().getAsLong());
        }
    }

    long records()
    {
        return records;
    }

    long bytes()
    {
        return bytes;
    }

    long files()
    {
        return files;
    }

    /** The creation time of the newest file as a TIMESTAMP WITH TIME ZONE value; null when no file records one. */
    Long lastUpdateTime()
    {
        return lastUpdateMillis == Long.MIN_VALUE ? null : packDateTimeWithZone(lastUpdateMillis, UTC_KEY);
    }
}
