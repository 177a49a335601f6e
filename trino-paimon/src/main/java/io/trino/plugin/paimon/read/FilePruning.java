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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.Lists;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.BinaryRowWriter;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.table.BucketFunction;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.predicate.ValueSet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The part of a snapshot that a query's predicate can match: partitions whose values its domains admit, the buckets
 * that the bucket-key values it fixes hash to (fixed-bucket tables), and data files whose key range can hold a value
 * it admits for the first primary-key column. This only prunes: a bucket's remaining files merge exactly for every
 * key the predicate admits (all records of a key lie in files whose range contains it), but possibly not for other
 * keys, so Trino must still apply the whole predicate to the rows read.
 */
public final class FilePruning
        implements ScanFilter
{
    // beyond this many bucket-key value combinations (an IN list per column), every bucket is read
    private static final int MAX_BUCKET_KEY_COMBINATIONS = 1024;

    private final List<PartitionDomain> partitionDomains;
    private final Optional<List<BinaryRow>> bucketKeys;
    private final Optional<List<Long>> modBucketKeys;
    private final Optional<KeyDomain> firstKeyDomain;
    private final Map<Integer, Set<Integer>> bucketsByTotalBuckets = new HashMap<>();

    private FilePruning(List<PartitionDomain> partitionDomains, Optional<List<BinaryRow>> bucketKeys, Optional<List<Long>> modBucketKeys, Optional<KeyDomain> firstKeyDomain)
    {
        this.partitionDomains = ImmutableList.copyOf(partitionDomains);
        this.bucketKeys = requireNonNull(bucketKeys, "bucketKeys is null");
        this.modBucketKeys = requireNonNull(modBucketKeys, "modBucketKeys is null");
        this.firstKeyDomain = requireNonNull(firstKeyDomain, "firstKeyDomain is null");
    }

    /** A filter for a constraint that is not none (a none constraint matches nothing and needs no scan). */
    public static FilePruning create(PaimonTable table, TupleDomain<PaimonColumnHandle> constraint)
    {
        TableSchema schema = table.schema();
        TableOptions options = table.options();
        Map<Integer, Domain> domains = new HashMap<>();
        constraint.getDomains().orElseThrow(() -> new IllegalArgumentException("constraint is none"))
                .forEach((column, domain) -> domains.put(column.fieldId(), domain));

        List<PartitionDomain> partitionDomains = new ArrayList<>();
        for (int i = 0; i < table.partitionFields().size(); i++) {
            DataField field = table.partitionFields().get(i);
            Domain domain = domains.get(field.id());
            if (domain != null && NativeValues.isConvertible(field.type())) {
                partitionDomains.add(new PartitionDomain(i, field.type(), domain));
            }
        }

        Optional<List<BinaryRow>> bucketKeys = Optional.empty();
        Optional<List<Long>> modBucketKeys = Optional.empty();
        if (options.bucket() > 0 && !options.bucketKey().isEmpty()) {
            List<DataField> bucketFields = options.bucketKey().stream().map(name -> schema.field(name).orElseThrow()).toList();
            Optional<List<List<Object>>> combinations = bucketKeyCombinations(bucketFields, domains);
            if (combinations.isPresent()) {
                List<DataType> types = bucketFields.stream().map(DataField::type).toList();
                if (options.bucketFunctionType() == TableOptions.BucketFunctionType.MOD) {
                    // Paimon's mod function takes a single INT or BIGINT key, never null
                    if (combinations.get().stream().allMatch(values -> values.size() == 1 && values.getFirst() instanceof Number)) {
                        modBucketKeys = Optional.of(combinations.get().stream().map(values -> ((Number) values.getFirst()).longValue()).toList());
                    }
                }
                else {
                    bucketKeys = Optional.of(combinations.get().stream().map(values -> BinaryRowWriter.toBinaryRow(types, values)).toList());
                }
            }
        }

        Optional<KeyDomain> firstKeyDomain = Optional.empty();
        Optional<DataField> firstKey = table.trimmedPrimaryKeyFields().stream().findFirst();
        if (firstKey.isPresent() && NativeValues.isConvertible(firstKey.get().type()) && domains.containsKey(firstKey.get().id())) {
            firstKeyDomain = Optional.of(new KeyDomain(firstKey.get().type(), domains.get(firstKey.get().id())));
        }
        return new FilePruning(partitionDomains, bucketKeys, modBucketKeys, firstKeyDomain);
    }

    /**
     * Whether a domain on a partition column of this type selects exactly the partitions whose value it admits, so
     * that pruning alone enforces it: true for the types whose values convert to Trino's (others are not pruned).
     */
    public static boolean prunesPartitionExactly(DataType partitionType)
    {
        return NativeValues.isConvertible(partitionType);
    }

    // every combination of bucket-key values the domains admit, as binary-row values; empty when a column is
    // unconstrained, not a set of single non-null values, or not convertible, or when there are too many combinations
    private static Optional<List<List<Object>>> bucketKeyCombinations(List<DataField> bucketFields, Map<Integer, Domain> domains)
    {
        List<List<Object>> valuesPerColumn = new ArrayList<>();
        long combinations = 1;
        for (DataField field : bucketFields) {
            Domain domain = domains.get(field.id());
            // a null bucket key is rare (primary keys are never null): such predicates read every bucket
            if (domain == null || domain.isNullAllowed() || !NativeValues.isConvertible(field.type())) {
                return Optional.empty();
            }
            // single values of any type, or small ranges of integers (Trino turns IN (6, 7) into 6..7); Trino expands
            // ranges of integer types only
            Optional<Collection<Object>> nativeValues = domain.getValues().isDiscreteSet()
                    ? Optional.of(domain.getValues().getDiscreteSet())
                    : domain.getValues().tryExpandRanges(MAX_BUCKET_KEY_COMBINATIONS);
            if (nativeValues.isEmpty()) {
                return Optional.empty();
            }
            List<Object> values = new ArrayList<>();
            for (Object value : nativeValues.get()) {
                values.add(NativeValues.toBinaryRowValue(field.type(), value));
            }
            combinations *= values.size();
            if (combinations > MAX_BUCKET_KEY_COMBINATIONS) {
                return Optional.empty();
            }
            valuesPerColumn.add(values);
        }
        return Optional.of(Lists.cartesianProduct(valuesPerColumn));
    }

    @Override
    public boolean matchesPartition(BinaryRow partition)
    {
        for (PartitionDomain partitionDomain : partitionDomains) {
            Object value = NativeValues.toNative(partitionDomain.type(), partition.get(partitionDomain.index(), partitionDomain.type()));
            if (!partitionDomain.domain().includesNullableValue(value)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean matchesBucket(int bucket, int totalBuckets)
    {
        if ((bucketKeys.isEmpty() && modBucketKeys.isEmpty()) || totalBuckets <= 0) {
            return true;
        }
        // files written before a rescale carry their own bucket count
        return bucketsByTotalBuckets.computeIfAbsent(totalBuckets, this::buckets).contains(bucket);
    }

    private Set<Integer> buckets(int totalBuckets)
    {
        Set<Integer> buckets = new HashSet<>();
        bucketKeys.ifPresent(keys -> keys.forEach(key -> buckets.add(BucketFunction.bucket(key, totalBuckets))));
        modBucketKeys.ifPresent(keys -> keys.forEach(key -> buckets.add(BucketFunction.modBucket(key, totalBuckets))));
        return buckets;
    }

    /** Whether a key-value file's key range can hold a key whose first column the predicate admits. */
    boolean mayContainKeys(DataFileMeta file)
    {
        if (firstKeyDomain.isEmpty() || file.minKey().arity() == 0 || file.maxKey().arity() == 0) {
            return true;
        }
        DataType type = firstKeyDomain.get().type();
        Object min = NativeValues.toNative(type, file.minKey().get(0, type));
        Object max = NativeValues.toNative(type, file.maxKey().get(0, type));
        if (min == null || max == null) {
            return true;
        }
        Domain domain = firstKeyDomain.get().domain();
        // keys sort by their first column first, so every key of the file has its first column within [min, max]
        return domain.overlaps(Domain.create(ValueSet.ofRanges(Range.range(domain.getType(), min, true, max, true)), false));
    }

    private record PartitionDomain(int index, DataType type, Domain domain)
    {
        PartitionDomain
        {
            requireNonNull(type, "type is null");
            requireNonNull(domain, "domain is null");
        }
    }

    private record KeyDomain(DataType type, Domain domain)
    {
        KeyDomain
        {
            requireNonNull(type, "type is null");
            requireNonNull(domain, "domain is null");
        }
    }
}
