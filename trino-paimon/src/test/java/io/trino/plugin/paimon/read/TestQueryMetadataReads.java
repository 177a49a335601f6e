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
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.WAREHOUSE_DIRECTORY;
import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static io.trino.plugin.paimon.testing.PaimonTestTables.EVOLVED;
import static io.trino.plugin.paimon.testing.PaimonTestTables.MULTI_COMMIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query resolves its table once: the schema file and the snapshot file are each read once per {@code SELECT},
 * however many buckets (splits) the table has, and a file written under an older schema reads that schema once per
 * query, not once per split.
 */
final class TestQueryMetadataReads
        extends AbstractTestQueryFramework
{
    private TempWarehouse warehouse;
    private FaultFs fileSystem;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = PaimonTestTables.inTempWarehouse();
        // no fault rules: the wrapper only records which files each query opens
        fileSystem = new FaultFs(new LocalFileSystemFactory(warehouse.root()), 0);
        // without the metadata cache: each query's own reads are counted
        return PaimonQueryRunner.create(fileSystem, DATABASE, ImmutableMap.of("paimon.metadata-cache.max-size", "0B"));
    }

    @AfterAll
    public void removeWarehouse()
            throws Exception
    {
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void selectOverManyBucketsReadsSchemaAndSnapshotOnce()
    {
        // multi_commit: one schema, four commits, two buckets in each of its day partitions
        Multiset<Location> reads = readsOf("SELECT * FROM " + MULTI_COMMIT);

        assertThat(bucketFolders(reads)).as("bucket folders read").hasSizeGreaterThan(2);
        assertThat(metadataFiles(reads, MULTI_COMMIT, "schema/")).containsExactly("schema-0");
        assertThat(metadataFiles(reads, MULTI_COMMIT, "snapshot/")).containsExactlyInAnyOrder("snapshot-4", "LATEST");
    }

    @Test
    void filesOfOlderSchemasReadTheirSchemaOncePerQuery()
    {
        // evolved: schemas 0 to 3; its files were written under schemas 0, 1 and 3, in several buckets
        Multiset<Location> reads = readsOf("SELECT * FROM " + EVOLVED);

        assertThat(bucketFolders(reads)).as("bucket folders read").hasSizeGreaterThan(2);
        assertThat(metadataFiles(reads, EVOLVED, "schema/")).containsExactlyInAnyOrder("schema-0", "schema-1", "schema-3");
        assertThat(metadataFiles(reads, EVOLVED, "snapshot/")).containsExactlyInAnyOrder("snapshot-3", "LATEST");
    }

    private Multiset<Location> readsOf(String sql)
    {
        // the second run is counted: a query reads the same files whether or not another query ran before it
        for (int run = 0; run < 2; run++) {
            fileSystem.resetReads();
            computeActual(sql);
        }
        return fileSystem.reads();
    }

    private static Location table(String name)
    {
        return Location.of("local:///" + WAREHOUSE_DIRECTORY + "/" + DATABASE + ".db/" + name);
    }

    private static Set<String> bucketFolders(Multiset<Location> reads)
    {
        return reads.elementSet().stream()
                .map(Location::toString)
                .filter(path -> path.contains("/bucket-"))
                .map(path -> path.substring(0, path.lastIndexOf('/')))
                .collect(toImmutableSet());
    }

    // names of the files read in one metadata folder of a table, each as often as it was read
    private static Multiset<String> metadataFiles(Multiset<Location> reads, String table, String folder)
    {
        String prefix = table(table).appendPath(folder).toString();
        ImmutableMultiset.Builder<String> names = ImmutableMultiset.builder();
        reads.forEach(location -> {
            if (location.toString().startsWith(prefix)) {
                names.add(location.fileName());
            }
        });
        return names.build();
    }
}
