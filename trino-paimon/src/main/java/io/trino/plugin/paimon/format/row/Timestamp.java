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
package io.trino.plugin.paimon.format.row;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A Paimon timestamp value: milliseconds since the epoch plus the nanoseconds within that millisecond, the way
 * Paimon stores TIMESTAMP and TIMESTAMP_LTZ values (wall clock as if UTC for the former, the instant for the latter).
 */
public record Timestamp(long epochMillis, int nanosOfMillisecond)
{
    public Timestamp
    {
        checkArgument(nanosOfMillisecond >= 0 && nanosOfMillisecond < 1_000_000, "nanosOfMillisecond out of range: %s", nanosOfMillisecond);
    }

    public static Timestamp ofEpochMicros(long epochMicros)
    {
        return new Timestamp(Math.floorDiv(epochMicros, 1000), Math.floorMod(epochMicros, 1000) * 1000);
    }
}
