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
package io.trino.plugin.paimon.table;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.table.TableOptions.durationOption;
import static io.trino.plugin.paimon.table.TableOptions.integerOption;
import static java.util.Objects.requireNonNull;

/**
 * How a commit that lost the race for a snapshot id is retried, from the table's options with Paimon's defaults:
 * at most {@code commit.max-retries} retries, waiting {@code commit.min-retry-wait} doubled per retry up to
 * {@code commit.max-retry-wait}, plus up to a fifth more at random so that rivals do not retry in step, and no retry
 * once {@code commit.timeout} (no limit by default) has passed since the first attempt.
 */
public record CommitRetry(int maxRetries, Duration minWait, Duration maxWait, Optional<Duration> timeout)
{
    public static final CommitRetry DEFAULT = new CommitRetry(10, Duration.ofMillis(10), Duration.ofSeconds(10), Optional.empty());

    public CommitRetry
    {
        checkArgument(maxRetries >= 0, "maxRetries is negative: %s", maxRetries);
        requireNonNull(minWait, "minWait is null");
        requireNonNull(maxWait, "maxWait is null");
        requireNonNull(timeout, "timeout is null");
    }

    /**
     * @throws io.trino.spi.TrinoException {@code PAIMON_INVALID_TABLE_OPTION} for a value Paimon would reject
     */
    public static CommitRetry fromOptions(String tableName, Map<String, String> options)
    {
        return new CommitRetry(
                integerOption(tableName, options, "commit.max-retries", DEFAULT.maxRetries()),
                durationOption(tableName, options, "commit.min-retry-wait", DEFAULT.minWait()),
                durationOption(tableName, options, "commit.max-retry-wait", DEFAULT.maxWait()),
                Optional.ofNullable(options.get("commit.timeout")).map(_ -> durationOption(tableName, options, "commit.timeout", Duration.ZERO)));
    }

    public CommitRetry withMaxRetries(int maxRetries)
    {
        return new CommitRetry(maxRetries, minWait, maxWait, timeout);
    }

    /** Why a commit that has made {@code retries} retries, the first attempt {@code elapsed} ago, must give up; empty while it may retry. */
    public Optional<String> exhausted(int retries, Duration elapsed)
    {
        if (retries >= maxRetries) {
            return Optional.of("commit.max-retries = %s reached".formatted(maxRetries));
        }
        if (timeout.isPresent() && elapsed.compareTo(timeout.get()) > 0) {
            return Optional.of("commit.timeout = %s ms passed after %s retries".formatted(timeout.get().toMillis(), retries));
        }
        return Optional.empty();
    }

    /** The wait before retry number {@code retries + 1}, jitter included. */
    public Duration waitBefore(int retries)
    {
        long base = minWait.toMillis() << Math.min(retries, 30);
        if (base < 0 || base > maxWait.toMillis()) {
            base = maxWait.toMillis();
        }
        return Duration.ofMillis(base + ThreadLocalRandom.current().nextLong(Math.max(1, base / 5)));
    }
}
