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

import com.google.common.collect.Multiset;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.plugin.paimon.testing.FaultFs;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog's metadata cache serves repeated queries without re-reading snapshots, schemas and manifests, and
 * never hides what Paimon Java commits from outside: a new snapshot, a new column, a table dropped and created
 * again under the same name (reliability.md T13).
 */
final class TestMetadataCacheQueries
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "cached";

    private TempWarehouse warehouse;
    private PaimonJavaCatalog paimon;
    private FaultFs fileSystem;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        // Paimon Java's own catalog cache would hide the drop and re-creation from the oracle itself
        paimon = PaimonJavaCatalog.uncached(warehouse.warehouse());
        paimon.createDatabase(DATABASE);
        // no fault rules: the wrapper only records which files each query opens
        fileSystem = new FaultFs(new LocalFileSystemFactory(warehouse.root()), 0);
        return PaimonQueryRunner.create(fileSystem, DATABASE);
    }

    @AfterAll
    public void removeWarehouse()
            throws Exception
    {
        if (paimon != null) {
            paimon.close();
        }
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void repeatedQueryReadsNoSnapshotSchemaOrManifestAgain()
    {
        Table table = createTable("repeated");
        PaimonJavaCatalog.write(table, rows(1, 3, "a"));
        PaimonJavaCatalog.write(table, rows(3, 6, "b"));
        assertQuery("SELECT count(*), sum(id) FROM repeated", "VALUES (5, 15)");

        Multiset<Location> reads = readsOf("SELECT id, v FROM repeated WHERE id = 3");

        assertThat(metadataFiles(reads, "repeated")).containsExactly("snapshot/LATEST");
        assertThat(cacheRequests()).isPositive();

        // flushed: the next query decodes them again
        assertUpdate("CALL system.flush_metadata_cache()");
        reads = readsOf("SELECT id, v FROM repeated WHERE id = 3");
        assertThat(metadataFiles(reads, "repeated"))
                .contains("snapshot/LATEST", "snapshot/snapshot-2", "schema/schema-0")
                .anyMatch(name -> name.startsWith("manifest/manifest-list-"))
                .anyMatch(name -> name.startsWith("manifest/manifest-") && !name.startsWith("manifest/manifest-list-"));
    }

    @Test
    void flushOfOneTableKeepsTheOthersCached()
    {
        PaimonJavaCatalog.write(createTable("flushed"), rows(1, 3, "a"));
        PaimonJavaCatalog.write(createTable("kept"), rows(1, 3, "a"));
        assertQuery("SELECT count(*) FROM flushed", "VALUES 2");
        assertQuery("SELECT count(*) FROM kept", "VALUES 2");

        assertUpdate("CALL system.flush_metadata_cache(schema_name => '%s', table_name => 'flushed')".formatted(DATABASE));

        assertThat(metadataFiles(readsOf("SELECT * FROM flushed"), "flushed")).contains("snapshot/snapshot-1", "schema/schema-0");
        assertThat(metadataFiles(readsOf("SELECT * FROM kept"), "kept")).containsExactly("snapshot/LATEST");
    }

    @Test
    void commitsFromOutsideAreSeenByTheNextQuery()
    {
        Table table = createTable("committed");
        PaimonJavaCatalog.write(table, rows(1, 4, "a"));
        assertQuery("SELECT id, v FROM committed", "VALUES (1, 'a'), (2, 'a'), (3, 'a')");
        assertQuery("SELECT id, v FROM committed", "VALUES (1, 'a'), (2, 'a'), (3, 'a')");

        PaimonJavaCatalog.write(table, rows(3, 5, "b"));
        assertQuery("SELECT id, v FROM committed", "VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, 'b')");

        paimon.alterTable(DATABASE, "committed", SchemaChange.addColumn("w", DataTypes.BIGINT()));
        PaimonJavaCatalog.write(paimon.getTable(DATABASE, "committed"), List.of(GenericRow.of(5L, BinaryString.fromString("c"), 50L)));
        assertQuery("SELECT id, v, w FROM committed", "VALUES (1, 'a', NULL), (2, 'a', NULL), (3, 'b', NULL), (4, 'b', NULL), (5, 'c', 50)");
        assertQuery("SELECT column_name FROM information_schema.columns WHERE table_schema = '%s' AND table_name = 'committed'".formatted(DATABASE), "VALUES 'id', 'v', 'w'");
    }

    @Test
    void tableDroppedAndCreatedAgainByPaimonJavaReadsAsTheNewTable()
    {
        // the new table reuses the names schema-0, snapshot-1 and snapshot-2 with other content
        Table old = createTable("recreated");
        PaimonJavaCatalog.write(old, rows(1, 3, "old"));
        PaimonJavaCatalog.write(old, rows(3, 5, "old"));
        assertQuery("SELECT id, v FROM recreated", "VALUES (1, 'old'), (2, 'old'), (3, 'old'), (4, 'old')");

        paimon.dropTable(DATABASE, "recreated");
        Table recreated = createTable("recreated");
        PaimonJavaCatalog.write(recreated, rows(7, 8, "new"));
        PaimonJavaCatalog.write(recreated, rows(8, 9, "new"));

        assertQuery("SELECT id, v FROM recreated", "VALUES (7, 'new'), (8, 'new')");
    }

    @Test
    void tableDroppedAndCreatedAgainThroughTrinoReadsAsTheNewTable()
    {
        assertUpdate("CREATE TABLE again (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO again VALUES (1, 'old'), (2, 'old')", 2);
        assertQuery("SELECT id, v FROM again", "VALUES (1, 'old'), (2, 'old')");

        assertUpdate("DROP TABLE again");
        assertUpdate("CREATE TABLE again (id bigint, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO again VALUES (3, 'new')", 1);

        assertQuery("SELECT id, v FROM again", "VALUES (3, 'new')");
    }

    private Table createTable(String name)
    {
        return paimon.createTable(DATABASE, name, Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
    }

    private static List<GenericRow> rows(long from, long to, String value)
    {
        return LongStream.range(from, to)
                .mapToObj(id -> GenericRow.of(id, BinaryString.fromString(value)))
                .toList();
    }

    private Multiset<Location> readsOf(String sql)
    {
        fileSystem.resetReads();
        computeActual(sql);
        return fileSystem.reads();
    }

    // the metadata files of the table the query opened, as "<folder>/<name>"
    private static List<String> metadataFiles(Multiset<Location> reads, String table)
    {
        String tableFolder = "/%s.db/%s/".formatted(DATABASE, table);
        return reads.elementSet().stream()
                .map(Location::toString)
                .filter(location -> location.contains(tableFolder))
                .map(location -> location.substring(location.indexOf(tableFolder) + tableFolder.length()))
                .filter(path -> path.startsWith("snapshot/") || path.startsWith("schema/") || path.startsWith("manifest/"))
                .sorted()
                .toList();
    }

    // the requests the catalog's cache has served, as JMX reports them
    private static long cacheRequests()
    {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("trino.plugin.paimon.format:type=MetadataCache,name=" + PaimonQueryRunner.CATALOG);
            return (Long) server.getAttribute(name, "Stats.RequestCount");
        }
        catch (Exception e) {
            throw new AssertionError("the metadata cache's statistics are not exported through JMX", e);
        }
    }
}
