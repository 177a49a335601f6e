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

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.PaimonColumnHandle;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.table.PaimonTable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * The domains a split's Parquet row groups and pages, and ORC stripes and row groups, are skipped by, per field id,
 * with the type each field has in the schema the query reads. Key domains apply to the key fields of key-value files: every record of a
 * key outside them is outside for every sorted run, so skipping it cannot change the merged row of a key the query
 * keeps. Value domains apply to the value columns and are only given where rows are read without merging (append
 * files, and buckets whose files hold each key once): before a merge, a value predicate could skip the newest record
 * of a key and bring back an older one.
 */
record RowGroupDomains(Map<Integer, Domain> keyDomains, Map<Integer, Domain> valueDomains, Map<Integer, DataType> types)
{
    static final RowGroupDomains NONE = new RowGroupDomains(ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of());

    RowGroupDomains
    {
        keyDomains = ImmutableMap.copyOf(keyDomains);
        valueDomains = ImmutableMap.copyOf(valueDomains);
        types = ImmutableMap.copyOf(types);
    }

    /**
     * The domains of a predicate that is not none: on primary-key columns as key domains, and on every column as
     * value domains when the split's rows are read without merging (an append table, or a raw-convertible bucket).
     */
    static RowGroupDomains of(PaimonTable table, TupleDomain<PaimonColumnHandle> predicate, boolean readWithoutMerge)
    {
        Map<PaimonColumnHandle, Domain> domains = predicate.getDomains().orElseThrow(() -> new IllegalArgumentException("predicate is none"));
        if (domains.isEmpty()) {
            return NONE;
        }
        Set<Integer> keyFields = table.hasPrimaryKey()
                ? table.trimmedPrimaryKeyFields().stream().map(DataField::id).collect(toImmutableSet())
                : Set.of();
        Map<Integer, Domain> keyDomains = new HashMap<>();
        Map<Integer, Domain> valueDomains = new HashMap<>();
        domains.forEach((column, domain) -> {
            if (keyFields.contains(column.fieldId())) {
                keyDomains.put(column.fieldId(), domain);
            }
            if (readWithoutMerge) {
                valueDomains.put(column.fieldId(), domain);
            }
        });
        Map<Integer, DataType> types = new HashMap<>();
        for (DataField field : table.schema().fields()) {
            types.put(field.id(), field.type());
        }
        return new RowGroupDomains(keyDomains, valueDomains, types);
    }

    Optional<Domain> keyDomain(int fieldId, DataType fileType)
    {
        return domain(keyDomains, fieldId, fileType);
    }

    Optional<Domain> valueDomain(int fieldId, DataType fileType)
    {
        return domain(valueDomains, fieldId, fileType);
    }

    // a file written before the column's type was changed holds values of its old type, whose statistics the
    // domain's type would misread: such columns are not pruned
    private Optional<Domain> domain(Map<Integer, Domain> domains, int fieldId, DataType fileType)
    {
        requireNonNull(fileType, "fileType is null");
        Domain domain = domains.get(fieldId);
        DataType type = types.get(fieldId);
        if (domain == null || type == null || !isPrunable(type) || !type.withNullable(true).equals(fileType.withNullable(true))) {
            return Optional.empty();
        }
        return Optional.of(domain);
    }

    /**
     * Types whose Parquet and ORC statistics Trino's readers compare exactly with a domain: numbers, dates, strings
     * and booleans. Timestamps (whose unit and zone vary with the writer), CHAR (padding) and nested types are not pruned.
     */
    static boolean isPrunable(DataType type)
    {
        return type instanceof DataType.BooleanType
                || type instanceof DataType.TinyIntType
                || type instanceof DataType.SmallIntType
                || type instanceof DataType.IntType
                || type instanceof DataType.BigIntType
                || type instanceof DataType.FloatType
                || type instanceof DataType.DoubleType
                || type instanceof DataType.DecimalType
                || type instanceof DataType.VarCharType
                || type instanceof DataType.DateType;
    }
}
