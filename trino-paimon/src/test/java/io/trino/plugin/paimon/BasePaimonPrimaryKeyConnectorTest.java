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
package io.trino.plugin.paimon;

import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TpchPrimaryKeyTables;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's connector conformance suite over TPCH tables that are primary-key tables in one file format, with two
 * sorted runs of overlapping keys per bucket ({@link TpchPrimaryKeyTables}): every read of them goes through the merge.
 */
public abstract class BasePaimonPrimaryKeyConnectorTest
        extends TestPaimonConnectorTest
{
    private final String fileFormat;

    protected BasePaimonPrimaryKeyConnectorTest(String fileFormat)
    {
        this.fileFormat = requireNonNull(fileFormat, "fileFormat is null");
    }

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        return PaimonQueryRunner.createWithTpchTables(SCHEMA, REQUIRED_TPCH_TABLES, Optional.of(fileFormat));
    }

    /** The fixture is what it claims: each bucket of orders holds two level-0 runs in the format, and the merge returns each key once. */
    @Test
    public void testTpchTablesAreMergedOnRead()
    {
        List<MaterializedRow> files = computeActual("SELECT bucket, level, file_format, record_count FROM \"orders$files\"").getMaterializedRows();
        Map<Object, List<MaterializedRow>> byBucket = files.stream().collect(groupingBy(row -> row.getField(0)));
        assertThat(byBucket).hasSize(2);
        byBucket.values().forEach(bucket -> assertThat(bucket).hasSize(2));
        assertThat(files).allSatisfy(row -> {
            assertThat(row.getField(1)).isEqualTo(0);
            assertThat(row.getField(2)).isEqualTo(fileFormat);
        });
        long records = files.stream().mapToLong(row -> (Long) row.getField(3)).sum();
        // the keys divisible by 3 are in both runs, so the files hold more records than the table has rows
        assertThat(records).isEqualTo((Long) computeScalar("SELECT count(*) + count_if(orderkey % 3 = 0) FROM tpch.tiny.orders"));
        assertQuery("SELECT count(*), count(DISTINCT orderkey), sum(totalprice) FROM orders", "SELECT count(*), count(DISTINCT orderkey), sum(totalprice) FROM orders");
    }

    @Test
    @Override
    public void testShowCreateTable()
    {
        assertThat((String) computeScalar("SHOW CREATE TABLE orders")).isEqualTo("""
                CREATE TABLE paimon.tpch.orders (
                   orderkey bigint NOT NULL,
                   custkey bigint,
                   orderstatus varchar(1),
                   totalprice double,
                   orderdate date,
                   orderpriority varchar(15),
                   clerk varchar(15),
                   shippriority integer,
                   comment varchar(79)
                )
                WITH (
                   bucket = 2,
                   file_format = '%s',
                   primary_key = ARRAY['orderkey']
                )""".formatted(fileFormat));
    }
}
