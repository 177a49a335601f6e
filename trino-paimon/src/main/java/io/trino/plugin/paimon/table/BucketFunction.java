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
