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

import io.trino.plugin.paimon.format.row.BinaryRow;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Paimon's fixed-bucket assignment (paimon-format.md §8.1). {@code default}: the bucket key's binary row is hashed
 * with MurmurHash3 (seed 42) and the bucket is {@code abs(hash % n)}, Java's remainder. {@code mod}: a single
 * INT or BIGINT key, {@code floorMod(key, n)}.
 */
public final class BucketFunction
{
    private BucketFunction() {}

    public static int bucket(BinaryRow bucketKey, int numBuckets)
    {
        checkArgument(numBuckets > 0, "numBuckets must be positive: %s", numBuckets);
        return Math.abs(bucketKey.paimonHashCode() % numBuckets);
    }

    public static int modBucket(long bucketKey, int numBuckets)
    {
        checkArgument(numBuckets > 0, "numBuckets must be positive: %s", numBuckets);
        return (int) Math.floorMod(bucketKey, (long) numBuckets);
    }
}
