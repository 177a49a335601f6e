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

import com.google.common.cache.Cache;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.trino.cache.CacheStatsMBean;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInputFile;
import io.trino.spi.TrinoException;
import org.weakref.jmx.Managed;
import org.weakref.jmx.Nested;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Throwables.throwIfUnchecked;
import static io.trino.cache.CacheUtils.invalidateAllIf;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_FILESYSTEM_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Decoded metadata files shared by all queries of a catalog, keyed by the file's full location, so two tables never
 * share an entry. Manifests, manifest lists and index manifests have unique names and never change, so an entry is
 * good for as long as it lives. Snapshot and schema files are named by their id, which a table dropped and created
 * again reuses: their entries also remember the file's length and modification time, and are served only while the
 * file still has both. Which snapshot is the latest is never cached. Bounded by the estimated bytes of the entries.
 */
public final class MetadataCache
{
    public static final MetadataCache DISABLED = new MetadataCache(0, Duration.ZERO);

    private final Optional<Cache<String, Entry>> cache;
    private final CacheStatsMBean stats;

    public MetadataCache(long maxBytes, Duration ttl)
    {
        checkArgument(maxBytes >= 0, "maxBytes is negative: %s", maxBytes);
        requireNonNull(ttl, "ttl is null");
        if (maxBytes == 0 || ttl.isZero()) {
            this.cache = Optional.empty();
            this.stats = new CacheStatsMBean(EvictableCacheBuilder.newBuilder().maximumSize(0).shareNothingWhenDisabled().recordStats().build());
            return;
        }
        Cache<String, Entry> cache = EvictableCacheBuilder.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String location, Entry entry) -> entry.weight())
                .expireAfterWrite(ttl)
                .recordStats()
                .build();
        this.cache = Optional.of(cache);
        this.stats = new CacheStatsMBean(cache);
    }

    public boolean enabled()
    {
        return cache.isPresent();
    }

    /**
     * The decoded content of a file whose content never changes under its name (manifests, manifest lists, index
     * manifests), decoded by the loader on a miss.
     *
     * @param weigher estimates the bytes a value holds on the heap
     */
    public <T> T immutableFile(Location location, Supplier<T> loader, ToLongFunction<T> weigher)
    {
        if (cache.isEmpty()) {
            return loader.get();
        }
        Entry entry = load(location.toString(), () -> {
            T loaded = loader.get();
            return new Entry(loaded, -1, Instant.EPOCH, weight(location, weigher.applyAsLong(loaded)));
        });
        @SuppressWarnings("unchecked")
        T value = (T) entry.value();
        return value;
    }

    /**
     * The decoded content of a file whose name a later file can take (snapshot and schema files), served from the
     * cache only while the file has the length and modification time it had when it was decoded. The file is looked
     * at before it is read, so content never pairs with a newer file's attributes. The decoded value is taken to
     * hold about four times the file's bytes.
     */
    public <T> T namedById(TrinoFileSystem fileSystem, Location location, Supplier<T> loader)
    {
        if (cache.isEmpty()) {
            return loader.get();
        }
        String key = location.toString();
        Optional<FileVersion> version = version(fileSystem, location);
        if (version.isEmpty()) {
            // missing: the loader names the missing file
            cache.get().invalidate(key);
            return loader.get();
        }
        Entry cached = cache.get().getIfPresent(key);
        if (cached != null && !cached.isOf(version.get())) {
            cache.get().invalidate(key);
        }
        Entry entry = load(key, () -> new Entry(loader.get(), version.get().length(), version.get().lastModified(), weight(location, 4 * version.get().length())));
        @SuppressWarnings("unchecked")
        T value = (T) (entry.isOf(version.get()) ? entry.value() : loader.get());
        // (a concurrent load of another version of the file wins the entry: this call decodes the file itself)
        return value;
    }

    private Entry load(String key, Supplier<Entry> loader)
    {
        try {
            return cache.orElseThrow().get(key, loader::get);
        }
        catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
            // the loaders throw TrinoExceptions naming the file: pass them on as they are
            throwIfUnchecked(e.getCause());
            throw new UncheckedExecutionException(e.getCause());
        }
    }

    /** Forgets every entry. */
    @Managed
    public void flush()
    {
        cache.ifPresent(Cache::invalidateAll);
    }

    /** Forgets the entries of the files under the location (a table's or a schema's folder). */
    public void flush(Location prefix)
    {
        String directory = prefix.toString().endsWith("/") ? prefix.toString() : prefix + "/";
        cache.ifPresent(entries -> invalidateAllIf(entries, location -> location.startsWith(directory)));
    }

    @Managed
    @Nested
    public CacheStatsMBean getStats()
    {
        return stats;
    }

    /** The estimated bytes the entries hold. */
    @Managed
    public long getRetainedBytes()
    {
        return cache.map(entries -> entries.asMap().values().stream().mapToLong(Entry::weight).sum()).orElse(0L);
    }

    private static int weight(Location location, long bytes)
    {
        // the key, the entry and its map node
        long weight = bytes + location.toString().length() + 96;
        return (int) Math.min(weight, Integer.MAX_VALUE);
    }

    private static Optional<FileVersion> version(TrinoFileSystem fileSystem, Location location)
    {
        TrinoInputFile file = fileSystem.newInputFile(location);
        try {
            return Optional.of(new FileVersion(file.length(), file.lastModified()));
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_FILESYSTEM_ERROR, "Failed to read the attributes of " + location, e);
        }
    }

    private record FileVersion(long length, Instant lastModified) {}

    private record Entry(Object value, long length, Instant lastModified, int weight)
    {
        private Entry
        {
            requireNonNull(value, "value is null");
            requireNonNull(lastModified, "lastModified is null");
        }

        boolean isOf(FileVersion version)
        {
            return length == version.length() && lastModified.equals(version.lastModified());
        }
    }
}
