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
package io.trino.plugin.paimon.write;

import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.spi.TrinoException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.plugin.paimon.table.TableOptions.limitOption;
import static io.trino.plugin.paimon.table.TableOptions.positiveOption;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The buckets of a dynamic-bucket primary-key table ({@code bucket} = -1, paimon-format.md §8.2), assigned as Paimon's
 * hash bucket assigner does: a key whose hash the table's {@code HASH} index already holds stays in that bucket; a new
 * key goes to the first of the assigner's buckets with fewer than {@code dynamic-bucket.target-row-num} keys, else to
 * a new bucket, the smallest number the assigner owns; past {@code dynamic-bucket.max-buckets} to one of the existing
 * buckets at random.
 * <p>
 * Rows reach assigners by a channel computed from the partition's hash and the key's hash ({@link #channel}); an
 * assigner owns the buckets {@code b} with {@code b % assigners == channel % assigners} and loads only the hashes routed
 * to it. All rows of one channel reach one page sink, so one sink owns the assignment of each (partition, channel) and
 * the buckets it creates. The sink also keeps each touched bucket's key hashes (its index file's content plus the new
 * keys), for the new index file of every bucket whose keys changed.
 */
public final class DynamicBucketAssigner
{
    private final int channels;
    private final int assigners;
    private final long targetRowNumber;
    private final int maxBuckets;
    private final Function<ByteBuffer, Map<Integer, String>> baseIndexFiles;
    private final Function<String, int[]> indexReader;
    private final Map<String, int[]> readFiles = new HashMap<>();
    private final Map<AssignerKey, PartitionAssignment> assignments = new HashMap<>();
    private final Map<Integer, Integer> maxBucketIds = new HashMap<>();
    private final Map<BucketKey, BucketKeys> bucketKeys = new LinkedHashMap<>();

    private record AssignerKey(ByteBuffer partition, int channel) {}

    private record BucketKey(ByteBuffer partition, int bucket) {}

    /** A bucket whose keys this statement changed, with all its key hashes (those of its index file and the new ones). */
    public record ChangedBucket(byte[] partition, int bucket, int[] hashes) {}

    /**
     * @param baseIndexFiles per serialized partition row, the index file of each bucket in the snapshot the statement
     * read (its location, as {@code indexReader} takes it)
     * @param indexReader reads the hashes of an index file
     */
    public DynamicBucketAssigner(int channels, int assigners, long targetRowNumber, int maxBuckets, Function<ByteBuffer, Map<Integer, String>> baseIndexFiles, Function<String, int[]> indexReader)
    {
        checkArgument(assigners > 0 && channels >= assigners, "need 0 < assigners <= channels: %s, %s", assigners, channels);
        this.channels = channels;
        this.assigners = assigners;
        this.targetRowNumber = targetRowNumber;
        this.maxBuckets = maxBuckets;
        this.baseIndexFiles = requireNonNull(baseIndexFiles, "baseIndexFiles is null");
        this.indexReader = requireNonNull(indexReader, "indexReader is null");
    }

    /** Paimon's assigner channel of a key: the partition picks the first channel, the key one of the assigners after it. */
    public static int channel(int partitionHash, int keyHash, int channels, int assigners)
    {
        int start = Math.abs(partitionHash % channels);
        int assigner = Math.abs(keyHash % assigners);
        return (start + assigner) % channels;
    }

    /**
     * Paimon's number of assigners: {@code dynamic-bucket.assigner-parallelism}, at most
     * {@code dynamic-bucket.initial-buckets}; one when neither is set (Trino has no assigner parallelism of its own).
     */
    public static int assigners(Map<String, String> tableOptions, String tableName)
    {
        int assigners = toIntExact(positiveOption(tableName, tableOptions, "dynamic-bucket.assigner-parallelism", Integer.MAX_VALUE, Integer.MAX_VALUE));
        int initialBuckets = toIntExact(positiveOption(tableName, tableOptions, "dynamic-bucket.initial-buckets", Integer.MAX_VALUE, Integer.MAX_VALUE));
        int count = Math.min(assigners, initialBuckets);
        return count == Integer.MAX_VALUE ? 1 : count;
    }

    /**
     * Trino's buckets (writer channels) for a dynamic-bucket table: a multiple of the assigner count, so that the
     * assigners a partition's keys spread over own distinct buckets; several per assigner for partitioned tables, so
     * that partitions spread over writers.
     */
    public static int channels(int assigners, boolean partitioned)
    {
        return partitioned ? assigners * 16 : assigners;
    }

    /** {@code dynamic-bucket.target-row-num}: the keys a bucket takes before new keys go to another (default 2,000,000). */
    public static long targetRowNumber(Map<String, String> tableOptions, String tableName)
    {
        return positiveOption(tableName, tableOptions, "dynamic-bucket.target-row-num", 2_000_000, Long.MAX_VALUE);
    }

    /** {@code dynamic-bucket.max-buckets}: the most buckets of a partition, -1 (the default) for no limit. */
    public static int maxBuckets(Map<String, String> tableOptions, String tableName)
    {
        OptionalLong maxBuckets = limitOption(tableName, tableOptions, "dynamic-bucket.max-buckets", Integer.MAX_VALUE);
        return maxBuckets.isPresent() ? toIntExact(maxBuckets.getAsLong()) : -1;
    }

    /** The bucket of a key of the partition, remembered (with the key's hash in the bucket's index) for the next rows. */
    public int assign(BinaryRow partition, byte[] serializedPartition, int keyHash)
    {
        int partitionHash = partition.paimonHashCode();
        int channel = channel(partitionHash, keyHash, channels, assigners);
        ByteBuffer partitionKey = ByteBuffer.wrap(serializedPartition);
        PartitionAssignment assignment = assignments.computeIfAbsent(new AssignerKey(partitionKey, channel), _ -> load(partitionKey, partitionHash, channel));
        int maxBucketId = maxBucketIds.getOrDefault(channel, 0);
        int bucket = assignment.assign(keyHash, maxBucketId);
        if (bucket > maxBucketId) {
            maxBucketIds.put(channel, bucket);
        }
        bucketKeys.computeIfAbsent(new BucketKey(partitionKey, bucket), this::restore).add(keyHash);
        return bucket;
    }

    /** The buckets that hold keys their index files did not have, each with all its key hashes. */
    public List<ChangedBucket> changedBuckets()
    {
        List<ChangedBucket> changed = new ArrayList<>();
        bucketKeys.forEach((key, keys) -> {
            if (keys.modified) {
                int[] hashes = keys.hashes.stream().mapToInt(Integer::intValue).toArray();
                byte[] partition = new byte[key.partition().remaining()];
                key.partition().duplicate().get(partition);
                changed.add(new ChangedBucket(partition, key.bucket(), hashes));
            }
        });
        return changed;
    }

    private PartitionAssignment load(ByteBuffer partition, int partitionHash, int channel)
    {
        Map<Integer, Integer> hashToBucket = new HashMap<>();
        // a java.util.HashMap as Paimon's: its iteration order is the order in which buckets are filled
        Map<Integer, Long> bucketSizes = new HashMap<>();
        baseIndexFiles.apply(partition).forEach((bucket, file) -> {
            boolean ownBucket = ownsBucket(bucket, channel);
            for (int hash : hashes(file)) {
                if (channel(partitionHash, hash, channels, assigners) == channel) {
                    hashToBucket.put(hash, bucket);
                }
                if (ownBucket) {
                    bucketSizes.merge(bucket, 1L, Long::sum);
                }
            }
        });
        return new PartitionAssignment(hashToBucket, bucketSizes, channel);
    }

    private BucketKeys restore(BucketKey key)
    {
        BucketKeys keys = new BucketKeys();
        String file = baseIndexFiles.apply(key.partition()).get(key.bucket());
        if (file != null) {
            for (int hash : hashes(file)) {
                keys.hashes.add(hash);
            }
        }
        return keys;
    }

    private int[] hashes(String file)
    {
        return readFiles.computeIfAbsent(file, indexReader);
    }

    private boolean ownsBucket(int bucket, int channel)
    {
        return bucket % assigners == channel % assigners;
    }

    private static final class BucketKeys
    {
        private final Set<Integer> hashes = new HashSet<>();
        private boolean modified;

        void add(int hash)
        {
            if (hashes.add(hash)) {
                modified = true;
            }
        }
    }

    // one assigner's view of one partition: the buckets of the keys it was routed, and its buckets' key counts
    private final class PartitionAssignment
    {
        private final Map<Integer, Integer> hashToBucket;
        private final Map<Integer, Long> nonFullBuckets;
        private final Set<Integer> buckets;
        private final List<Integer> bucketList;
        private final int channel;

        PartitionAssignment(Map<Integer, Integer> hashToBucket, Map<Integer, Long> bucketSizes, int channel)
        {
            this.hashToBucket = hashToBucket;
            this.nonFullBuckets = bucketSizes;
            this.buckets = new LinkedHashSet<>(bucketSizes.keySet());
            this.bucketList = new ArrayList<>(buckets);
            this.channel = channel;
        }

        int assign(int hash, int maxBucketId)
        {
            Integer known = hashToBucket.get(hash);
            if (known != null) {
                return known;
            }
            Iterator<Map.Entry<Integer, Long>> iterator = nonFullBuckets.entrySet().iterator();
            while (iterator.hasNext()) {
                Map.Entry<Integer, Long> entry = iterator.next();
                if (entry.getValue() < targetRowNumber) {
                    entry.setValue(entry.getValue() + 1);
                    hashToBucket.put(hash, entry.getKey());
                    return entry.getKey();
                }
                iterator.remove();
            }
            int largestBucket = (maxBuckets == -1 ? Short.MAX_VALUE : maxBuckets) - 1;
            if (buckets.isEmpty() || maxBucketId < largestBucket) {
                for (int bucket = 0; bucket <= largestBucket; bucket++) {
                    if (ownsBucket(bucket, channel) && !buckets.contains(bucket)) {
                        nonFullBuckets.put(bucket, 1L);
                        buckets.add(bucket);
                        bucketList.add(bucket);
                        hashToBucket.put(hash, bucket);
                        return bucket;
                    }
                }
                if (maxBuckets == -1) {
                    throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "A partition needs more than %s dynamic buckets; raise 'dynamic-bucket.target-row-num' (%s)".formatted(Short.MAX_VALUE, targetRowNumber));
                }
            }
            // past 'dynamic-bucket.max-buckets': Paimon spreads new keys over the existing buckets at random
            int bucket = bucketList.get(ThreadLocalRandom.current().nextInt(bucketList.size()));
            hashToBucket.put(hash, bucket);
            return bucket;
        }
    }
}
