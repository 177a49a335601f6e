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
import io.trino.Session;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The footer cache of Trino 483's Parquet reader ({@code paimon.parquet-footer-cache.max-size}): the second scan of the
 * same files reads fewer bytes, by the footers it no longer reads; with the cache off both scans read the same bytes.
 */
final class TestParquetFooterCache
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "footers";
    private static final String SCAN = "SELECT count(*), sum(id), max(v) FROM numbers";

    private TempWarehouse warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        warehouse.paimon().createDatabase(SCHEMA);
        QueryRunner queryRunner = PaimonQueryRunner.create(warehouse.root(), SCHEMA);
        try {
            queryRunner.createCatalog("uncached", "paimon", ImmutableMap.<String, String>builder()
                    .putAll(PaimonQueryRunner.catalogProperties(warehouse.root()))
                    .put("paimon.parquet-footer-cache.max-size", "0B")
                    .buildOrThrow());
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    @AfterAll
    void removeWarehouse()
            throws Exception
    {
        warehouse.close();
    }

    @Test
    void secondScanReadsNoFooter()
    {
        assertUpdate("CREATE TABLE numbers (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 2)");
        assertUpdate("INSERT INTO numbers SELECT n, 'v' || CAST(n AS varchar) FROM UNNEST(sequence(1, 5000)) t(n)", 5000);
        assertUpdate("INSERT INTO numbers SELECT n, 'w' || CAST(n AS varchar) FROM UNNEST(sequence(2500, 7500)) t(n)", 5001);

        Session uncached = testSessionBuilder().setCatalog("uncached").setSchema(SCHEMA).build();
        ScanStatistics uncachedFirst = ScanStatistics.execute(getQueryRunner(), uncached, SCAN);
        ScanStatistics uncachedSecond = ScanStatistics.execute(getQueryRunner(), uncached, SCAN);
        assertThat(uncachedSecond.physicalInputBytes()).isEqualTo(uncachedFirst.physicalInputBytes());

        ScanStatistics first = ScanStatistics.execute(getQueryRunner(), SCAN);
        ScanStatistics second = ScanStatistics.execute(getQueryRunner(), SCAN);
        assertThat(second.result().getMaterializedRows()).isEqualTo(first.result().getMaterializedRows());
        assertThat(first.result().getMaterializedRows()).isEqualTo(uncachedFirst.result().getMaterializedRows());
        // four files, two per bucket: the first scan reads their footers and fills the cache, the second reads none
        assertThat(first.filesOpened()).isEqualTo(4);
        assertThat(first.physicalInputBytes()).isEqualTo(uncachedFirst.physicalInputBytes());
        assertThat(second.physicalInputBytes()).isLessThan(first.physicalInputBytes());
    }
}
