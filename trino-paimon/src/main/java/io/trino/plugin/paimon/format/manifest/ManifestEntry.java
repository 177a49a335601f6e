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
package io.trino.plugin.paimon.format.manifest;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.row.BinaryRow;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One change to a table's file set: a data file added to or deleted from a (partition, bucket).
 * {@code totalBuckets} is the bucket count the file was written with (tables can be rescaled).
 */
public record ManifestEntry(FileKind kind, BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file)
{
    public static final int VERSION = 2;
    /** The bucket of files written to postpone buckets; they are not part of a batch read until compacted. */
    public static final int POSTPONE_BUCKET = -2;

    public ManifestEntry
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(file, "file is null");
    }

    public enum FileKind
    {
        ADD, DELETE;

        public static FileKind fromCode(int code)
        {
            return switch (code) {
                case 0 -> ADD;
                case 1 -> DELETE;
                default -> throw new InvalidMetadataException("unknown file kind " + code);
            };
        }

        public int code()
        {
            return ordinal();
        }
    }

    /** What makes two entries the same file: a level change of a file is a DELETE plus an ADD of the same name. */
    public Identifier identifier()
    {
        return new Identifier(
                ByteBuffer.wrap(partition.bytes()),
                bucket,
                file.level(),
                file.fileName(),
                file.extraFiles(),
                file.embeddedIndex().map(ByteBuffer::wrap),
                file.externalPath());
    }

    public record Identifier(ByteBuffer partition, int bucket, int level, String fileName, List<String> extraFiles, Optional<ByteBuffer> embeddedIndex, Optional<String> externalPath)
    {
        public Identifier
        {
            requireNonNull(partition, "partition is null");
            requireNonNull(fileName, "fileName is null");
            extraFiles = ImmutableList.copyOf(extraFiles);
            requireNonNull(embeddedIndex, "embeddedIndex is null");
            requireNonNull(externalPath, "externalPath is null");
        }
    }
}
