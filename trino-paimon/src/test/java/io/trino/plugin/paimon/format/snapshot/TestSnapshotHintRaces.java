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
package io.trino.plugin.paimon.format.snapshot;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.testing.TempWarehouse;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * T10 of reliability.md: while one thread rewrites the LATEST hint as fast as it can (through
 * {@code createOrOverwrite}, which truncates and then writes, so readers also see empty and partial hints) with ids
 * of growing length, garbage, negative, far-ahead and missing ids, another drops and removes stray temporary
 * snapshot files, and a writer adds snapshots, planners resolving the latest snapshot always get the id the
 * listing shows at that moment, and never an exception.
 * <p>
 * Size: {@code -Dpaimon.test.scale=N} multiplies the resolutions (default 4 planners × 300).
 */
final class TestSnapshotHintRaces
{
    private static final int PLANNERS = 4;

    @Test
    void latestIsTheListedLatestWhateverTheHintSays()
            throws Exception
    {
        int resolutionsPerPlanner = 300 * Integer.getInteger("paimon.test.scale", 1);
        try (TempWarehouse warehouse = TempWarehouse.create()) {
            Path folder = Files.createDirectories(warehouse.root().resolve("t/snapshot"));
            for (int id = 1; id <= 9; id++) {
                Files.writeString(folder.resolve("snapshot-" + id), "{}");
            }
            TrinoFileSystem fileSystem = warehouse.fileSystem();
            SnapshotFiles snapshots = new SnapshotFiles(fileSystem, Location.of("local:///t"));
            // snapshots up to lastPublished exist; none after upcoming does
            AtomicLong lastPublished = new AtomicLong(9);
            AtomicLong upcoming = new AtomicLong(9);
            AtomicBoolean done = new AtomicBoolean();

            ExecutorService executor = Executors.newFixedThreadPool(PLANNERS + 3);
            try {
                // thread A: the hint, rewritten in place with ids of changing length and values no writer of ours produces
                Future<?> hints = executor.submit(() -> {
                    Random random = new Random(1);
                    List<String> odd = List.of("", "abc", "-1", "999999", "99", " 5\n", "0");
                    long growing = 9;
                    while (!done.get()) {
                        String hint = random.nextInt(3) == 0 ? odd.get(random.nextInt(odd.size())) : String.valueOf(growing);
                        growing = growing >= 100_000 ? 9 : growing * 10 + random.nextInt(10);
                        fileSystem.newOutputFile(Location.of("local:///t/snapshot/LATEST")).createOrOverwrite(hint.getBytes(UTF_8));
                    }
                    return null;
                });
                // thread B: temporary files of publishes in flight, Paimon's and pypaimon's spelling, created and removed
                Future<?> strays = executor.submit(() -> {
                    while (!done.get()) {
                        Path stray = folder.resolve("snapshot-7.%s.tmp".formatted(UUID.randomUUID()));
                        Path hidden = folder.resolve(".snapshot-8.%s.tmp".formatted(UUID.randomUUID()));
                        Files.writeString(stray, "{");
                        Files.writeString(hidden, "{");
                        Files.delete(stray);
                        Files.delete(hidden);
                    }
                    return null;
                });
                // a writer publishing a few hundred new snapshots meanwhile
                Future<?> writer = executor.submit(() -> {
                    while (!done.get() && lastPublished.get() < 300) {
                        long next = lastPublished.get() + 1;
                        upcoming.set(next);
                        Files.writeString(folder.resolve("snapshot-" + next), "{}");
                        lastPublished.set(next);
                        Thread.sleep(5);
                    }
                    return null;
                });

                List<Future<List<String>>> planners = new ArrayList<>();
                for (int planner = 0; planner < PLANNERS; planner++) {
                    planners.add(executor.submit(() -> {
                        List<String> wrong = new ArrayList<>();
                        for (int i = 0; i < resolutionsPerPlanner; i++) {
                            long before = lastPublished.get();
                            long resolved = snapshots.latestSnapshotId().orElseThrow();
                            long after = upcoming.get();
                            if (resolved < before || resolved > after) {
                                wrong.add("resolved %s while the listing went from %s to %s".formatted(resolved, before, after));
                            }
                        }
                        return wrong;
                    }));
                }
                List<String> wrong = new ArrayList<>();
                for (Future<List<String>> planner : planners) {
                    wrong.addAll(planner.get());
                }
                done.set(true);
                hints.get();
                strays.get();
                writer.get();
                assertThat(wrong).isEmpty();
            }
            finally {
                done.set(true);
                executor.shutdownNow();
            }
        }
    }
}
