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
package io.trino.plugin.paimon.testing;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;

import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.plugin.tpch.TpchMetadata.TINY_SCHEMA_NAME;
import static java.util.stream.Collectors.joining;

/**
 * The TPCH tables as primary-key tables whose buckets each hold two sorted runs with overlapping keys: a third of
 * the rows by {@code CREATE TABLE AS}, then every row by {@code INSERT}, so the rows of that third are in both runs
 * with equal values. A read that did not merge would return them twice; one that merged wrongly, other values.
 */
public final class TpchPrimaryKeyTables
{
    // TPCH's keys, as its specification declares them
    private static final Map<String, List<String>> PRIMARY_KEYS = ImmutableMap.<String, List<String>>builder()
            .put("nation", List.of("nationkey"))
            .put("region", List.of("regionkey"))
            .put("customer", List.of("custkey"))
            .put("orders", List.of("orderkey"))
            .put("lineitem", List.of("orderkey", "linenumber"))
            .put("part", List.of("partkey"))
            .put("partsupp", List.of("partkey", "suppkey"))
            .put("supplier", List.of("suppkey"))
            .buildOrThrow();

    private TpchPrimaryKeyTables() {}

    public static void copy(QueryRunner queryRunner, Session session, String fileFormat, Iterable<TpchTable<?>> tables)
    {
        for (TpchTable<?> table : tables) {
            String name = table.getTableName();
            List<String> key = PRIMARY_KEYS.get(name);
            checkArgument(key != null, "No primary key known for TPCH table %s", name);
            String source = "tpch.%s.%s".formatted(TINY_SCHEMA_NAME, name);
            queryRunner.execute(session, "CREATE TABLE %s WITH (primary_key = ARRAY[%s], bucket = 2, file_format = '%s') AS SELECT * FROM %s WHERE %s %% 3 = 0".formatted(
                    name,
                    key.stream().map(column -> "'" + column + "'").collect(joining(", ")),
                    fileFormat,
                    source,
                    key.getFirst()));
            queryRunner.execute(session, "INSERT INTO %s SELECT * FROM %s".formatted(name, source));
        }
    }
}
