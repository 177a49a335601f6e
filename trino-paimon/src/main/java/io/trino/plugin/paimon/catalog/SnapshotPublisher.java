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

import io.trino.plugin.paimon.format.snapshot.Snapshot;

import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Makes a new snapshot the table's latest. Where tables live in a folder catalog, publishing is the exclusive
 * creation of {@code snapshot-<id>}; a catalog service may serialise it with a lock or take the commit itself.
 */
@FunctionalInterface
public interface SnapshotPublisher
{
    /**
     * Publishes the snapshot unless its id is taken.
     *
     * @return false when another writer published a snapshot with this id first (the commit retries on top of it)
     * @throws io.trino.spi.TrinoException {@code PAIMON_COMMIT_STATE_UNKNOWN} when the snapshot may or may not
     * have been published
     */
    boolean publish(Snapshot snapshot);

    /**
     * The lock a commit holds from reading the latest snapshot to publishing the next one, so that commits which
     * share it wait for each other instead of racing for the same id ({@link CommitLocks}); none by default.
     */
    default Optional<Lock> commitLock()
    {
        return Optional.empty();
    }
}
