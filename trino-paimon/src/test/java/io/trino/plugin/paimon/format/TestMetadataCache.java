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
import io.trino.filesystem.local.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

final class TestMetadataCache
{
    private static final Duration TTL = Duration.ofMinutes(5);

    @TempDir
    private Path directory;

    @Test
    void immutableFileIsDecodedOnce()
    {
        MetadataCache cache = new MetadataCache(1_000_000, TTL);
        AtomicInteger loads = new AtomicInteger();
        Location location = Location.of("local:///db.db/t/manifest/manifest-1");

        for (int i = 0; i < 3; i++) {
            assertThat(cache.immutableFile(location, () -> "decoded-" + loads.incrementAndGet(), _ -> 100)).isEqualTo("decoded-1");
        }
        assertThat(loads).hasValue(1);
        assertThat(cache.getStats().getRequestCount()).isEqualTo(3);
        assertThat(cache.getStats().getHitRate()).isEqualTo(2.0 / 3);
    }

    @Test
    void holdsNoMoreThanItsBound()
    {
        MetadataCache cache = new MetadataCache(20_000, TTL);
        AtomicInteger loads = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            cache.immutableFile(Location.of("local:///db.db/t/manifest/manifest-" + i), loads::incrementAndGet, _ -> 1_000);
        }

        assertThat(cache.getRetainedBytes()).isPositive().isLessThanOrEqualTo(20_000);
        assertThat(cache.getStats().size()).isLessThan(100);
        // the first file was evicted long ago: it is decoded again
        cache.immutableFile(Location.of("local:///db.db/t/manifest/manifest-0"), loads::incrementAndGet, _ -> 1_000);
        assertThat(loads).hasValue(101);
    }

    @Test
    void sizeZeroCachesNothing()
    {
        MetadataCache cache = new MetadataCache(0, TTL);
        AtomicInteger loads = new AtomicInteger();
        Location location = Location.of("local:///db.db/t/manifest/manifest-1");

        cache.immutableFile(location, loads::incrementAndGet, _ -> 100);
        cache.immutableFile(location, loads::incrementAndGet, _ -> 100);

        assertThat(cache.enabled()).isFalse();
        assertThat(loads).hasValue(2);
        assertThat(cache.getRetainedBytes()).isZero();
    }

    @Test
    void fileNamedByIdIsServedOnlyWhileItIsTheSameFile()
            throws IOException
    {
        MetadataCache cache = new MetadataCache(1_000_000, TTL);
        TrinoFileSystem fileSystem = new LocalFileSystem(directory);
        Location location = Location.of("local:///db.db/t/snapshot/snapshot-1");
        Path file = directory.resolve("db.db/t/snapshot/snapshot-1");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "first");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));

        assertThat(cache.namedById(fileSystem, location, () -> read(file))).isEqualTo("first");
        Files.writeString(file, "other");
        // same length and time: indistinguishable, so served from the cache
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        assertThat(cache.namedById(fileSystem, location, () -> read(file))).isEqualTo("first");

        // the table was dropped and created again: a new file under the old name
        Files.writeString(file, "second");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        assertThat(cache.namedById(fileSystem, location, () -> read(file))).isEqualTo("second");
        Files.writeString(file, "third!");
        Files.setLastModifiedTime(file, FileTime.fromMillis(2_000_000));
        assertThat(cache.namedById(fileSystem, location, () -> read(file))).isEqualTo("third!");
    }

    @Test
    void flushOfAFolderForgetsOnlyTheFilesUnderIt()
    {
        MetadataCache cache = new MetadataCache(1_000_000, TTL);
        AtomicInteger loads = new AtomicInteger();
        Location first = Location.of("local:///db.db/t/manifest/manifest-1");
        Location sibling = Location.of("local:///db.db/t2/manifest/manifest-1");
        cache.immutableFile(first, loads::incrementAndGet, _ -> 100);
        cache.immutableFile(sibling, loads::incrementAndGet, _ -> 100);

        cache.flush(Location.of("local:///db.db/t"));

        assertThat(cache.immutableFile(first, loads::incrementAndGet, _ -> 100)).isEqualTo(3);
        assertThat(cache.immutableFile(sibling, loads::incrementAndGet, _ -> 100)).isEqualTo(2);

        cache.flush();
        assertThat(cache.immutableFile(sibling, loads::incrementAndGet, _ -> 100)).isEqualTo(4);
    }

    private static String read(Path file)
    {
        try {
            return Files.readString(file, UTF_8);
        }
        catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
