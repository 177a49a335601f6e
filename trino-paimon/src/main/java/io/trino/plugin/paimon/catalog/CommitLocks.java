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

import com.google.common.collect.MapMaker;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.snapshot.Snapshot;

import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * One lock per table for the commits a catalog makes: every commit of a Trino cluster runs on its coordinator, so its
 * statements can queue for a table's next snapshot id instead of racing for it and retrying, which under many small
 * concurrent writes exhausted {@code commit.max-retries}. Other engines and other catalogs still race through the
 * exclusive creation of the snapshot (or the catalog service), and a commit that loses to them retries.
 */
public final class CommitLocks
{
    // fair, so a commit waits behind those that came before it; weak values: a lock lives while a commit uses it
    private final ConcurrentMap<Location, Lock> locks = new MapMaker().weakValues().makeMap();

    /** The publisher, with the table's lock for the commits through it to hold. */
    public SnapshotPublisher queued(Location table, SnapshotPublisher publisher)
    {
        requireNonNull(publisher, "publisher is null");
        return new QueuedPublisher(publisher, locks.computeIfAbsent(table, _ -> new ReentrantLock(true)));
    }

    private record QueuedPublisher(SnapshotPublisher publisher, Lock lock)
            implements SnapshotPublisher
    {
        private QueuedPublisher
        {
            requireNonNull(publisher, "publisher is null");
            requireNonNull(lock, "lock is null");
        }

        @Override
        public boolean publish(Snapshot snapshot)
        {
            return publisher.publish(snapshot);
        }

        @Override
        public Optional<Lock> commitLock()
        {
            return Optional.of(lock);
        }
    }
}
