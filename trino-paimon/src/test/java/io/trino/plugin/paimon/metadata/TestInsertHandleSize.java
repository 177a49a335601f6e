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
package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import io.airlift.json.ObjectMapperProvider;
import io.trino.plugin.paimon.PaimonPlugin;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static com.google.common.collect.Iterables.getOnlyElement;
import static io.trino.spi.transaction.IsolationLevel.READ_UNCOMMITTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handle of an INSERT, which Trino sends to every task, does not grow with the table: the page sinks read the
 * buckets they write from the base snapshot themselves. Before, it listed every (partition, bucket) of the table.
 */
final class TestInsertHandleSize
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "handles";

    TestInsertHandleSize()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        for (String bucket : List.of("4", "-1")) {
            paimon.createTable(DATABASE, "partitioned_" + (bucket.equals("-1") ? "dynamic" : "fixed"), Schema.newBuilder()
                    .column("dt", DataTypes.STRING().notNull())
                    .column("k", DataTypes.INT().notNull())
                    .column("v", DataTypes.STRING())
                    .partitionKeys("dt")
                    .primaryKey("dt", "k")
                    .option("bucket", bucket)
                    .build());
        }
    }

    @Test
    void insertHandleDoesNotGrowWithPartitionsAndBuckets()
            throws Exception
    {
        for (String table : List.of("partitioned_fixed", "partitioned_dynamic")) {
            getQueryRunner().execute("INSERT INTO %s VALUES ('p0000', 1, 'a')".formatted(table));
            int onePartition = insertHandleJson(table).length();
            // 100 more partitions, up to four buckets each
            getQueryRunner().execute("INSERT INTO %s SELECT 'p' || lpad(CAST(p AS varchar), 4, '0'), k, 'b' FROM UNNEST(sequence(1, 100)) a(p) CROSS JOIN UNNEST(sequence(1, 8)) b(k)".formatted(table));
            assertThat(computeScalar("SELECT count(DISTINCT dt) FROM " + table)).isEqualTo(101L);
            assertThat(insertHandleJson(table).length()).as(table).isEqualTo(onePartition);
        }
    }

    // the insert handle of the table as the coordinator sends it to the workers
    private String insertHandleJson(String table)
            throws Exception
    {
        Connector connector = getOnlyElement(new PaimonPlugin().getConnectorFactories())
                .create("paimon", PaimonQueryRunner.catalogProperties(root()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(READ_UNCOMMITTED, false, true);
            ConnectorMetadata metadata = connector.getMetadata(session, transaction);
            ConnectorTableHandle tableHandle = metadata.getTableHandle(session, new SchemaTableName(DATABASE, table), Optional.empty(), Optional.empty());
            List<ColumnHandle> columns = ImmutableList.copyOf(metadata.getColumnHandles(session, tableHandle).values());
            ConnectorInsertTableHandle insert = metadata.beginInsert(session, tableHandle, columns, RetryMode.NO_RETRIES);
            String json = new ObjectMapperProvider().get().writeValueAsString(insert);
            connector.rollback(transaction);
            return json;
        }
        finally {
            connector.shutdown();
        }
    }
}
