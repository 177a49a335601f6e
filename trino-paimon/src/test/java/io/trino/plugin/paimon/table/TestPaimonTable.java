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
package io.trino.plugin.paimon.table;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.json.ObjectMapperProvider;
import io.airlift.units.Duration;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.PaimonExpireSnapshotsHandle;
import io.trino.plugin.paimon.PaimonOptimizeHandle;
import io.trino.plugin.paimon.PaimonRemoveOrphanFilesHandle;
import io.trino.plugin.paimon.PaimonTableExecuteHandle;
import io.trino.plugin.paimon.PaimonTableProcedureHandle;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.PaimonTestTables;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.connector.SchemaTableName;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.plugin.paimon.testing.PaimonTestTables.DATABASE;
import static io.trino.plugin.paimon.testing.PaimonTestTables.MULTI_COMMIT;
import static java.util.Locale.ENGLISH;
import static java.util.concurrent.TimeUnit.DAYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The resolved table model against tables Paimon Java wrote: it travels as JSON without losing anything of any
 * schema version, its trimmed key and partition fields are Paimon's, and its bucket folders are where Paimon Java
 * put the data files.
 */
@TestInstance(PER_CLASS)
final class TestPaimonTable
{
    private static final ObjectMapper MAPPER = new ObjectMapperProvider().get();

    private TempWarehouse warehouse;
    private TrinoFileSystem fileSystem;

    @BeforeAll
    void createTables()
    {
        warehouse = PaimonTestTables.inTempWarehouse();
        warehouse.paimon().createTable(DATABASE, "every_type", Schema.newBuilder()
                .column("dt", DataTypes.DATE())
                .column("id", DataTypes.BIGINT())
                .column("c_decimal", DataTypes.DECIMAL(38, 18))
                .column("c_char", DataTypes.CHAR(3))
                .column("c_varbinary", DataTypes.VARBINARY(9))
                .column("c_time", DataTypes.TIME(6))
                .column("c_timestamp", DataTypes.TIMESTAMP(9))
                .column("c_ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0))
                .column("c_array", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT().notNull())))
                .column("c_map", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ROW(DataTypes.FIELD(50, "k", DataTypes.STRING(), "a comment"))))
                .column("c_multiset", DataTypes.MULTISET(DataTypes.DOUBLE()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(51, "x", DataTypes.INT().notNull()), DataTypes.FIELD(52, "y", DataTypes.ARRAY(DataTypes.STRING()))).notNull())
                .column("c_variant", DataTypes.VARIANT())
                .partitionKeys("dt")
                .primaryKey("id", "dt")
                .option("bucket", "3")
                .option("sequence.field", "c_timestamp")
                .comment("every kind of type")
                .build());
        fileSystem = warehouse.fileSystem();
    }

    @AfterAll
    void removeTables()
            throws Exception
    {
        warehouse.close();
    }

    @Test
    void travelsAsJsonWithEverySchemaVersionIntact()
            throws Exception
    {
        for (String name : List.of(PaimonTestTables.MULTI_COMMIT, PaimonTestTables.EVOLVED, PaimonTestTables.APPEND, "every_type")) {
            SchemaFiles schemas = new SchemaFiles(fileSystem, location(name));
            for (long schemaId : schemas.listSchemaIds()) {
                PaimonTable table = new PaimonTable(new SchemaTableName(DATABASE, name), location(name), schemas.readSchema(schemaId));
                PaimonTable copy = MAPPER.readValue(MAPPER.writeValueAsString(table), PaimonTable.class);
                assertThat(copy.schema()).as("%s schema %s", name, schemaId).isEqualTo(table.schema());
                assertThat(copy).isEqualTo(table);
                assertThat(copy.options()).isEqualTo(table.options());
            }
        }
    }

    @Test
    void keysArePaimonsAndPartitionKeysLeaveTheBucketKey()
    {
        // every_type: primary key (id, dt), partitioned by dt, as Paimon Java keeps them in the schema file
        PaimonTable table = table("every_type");
        assertThat(table.schema().primaryKeys()).containsExactly("id", "dt");
        assertThat(table.trimmedPrimaryKeyFields()).extracting(DataField::name).containsExactly("id");
        assertThat(table.partitionFields()).extracting(DataField::name).containsExactly("dt");
        assertThat(table.options().bucketKey()).containsExactly("id");
        assertThat(table.hasPrimaryKey()).isTrue();

        PaimonTable append = table(PaimonTestTables.APPEND);
        assertThat(append.trimmedPrimaryKeyFields()).isEmpty();
        assertThat(append.hasPrimaryKey()).isFalse();
    }

    @Test
    void bucketFoldersAreWherePaimonJavaWroteTheFiles()
            throws Exception
    {
        PaimonTable table = table(MULTI_COMMIT);
        List<ManifestEntry> files = new SnapshotScan(fileSystem, table.location())
                .liveFiles(new SnapshotFiles(fileSystem, table.location()).latestSnapshot().orElseThrow(), ScanFilter.ALL);
        assertThat(files).hasSizeGreaterThan(4);
        for (ManifestEntry entry : files) {
            Location file = table.bucketLocation(entry.partition(), entry.bucket()).appendPath(entry.file().fileName());
            assertThat(file.toString()).startsWith(table.location() + "/dt=").contains("/bucket-" + entry.bucket() + "/");
            assertThat(fileSystem.newInputFile(file).exists()).as(file.toString()).isTrue();
        }
    }

    /** The handle of a table procedure run travels with its own typed state, and decodes to the procedure it names. */
    @Test
    void tableProcedureHandlesTravelAsJsonTypedByProcedure()
            throws Exception
    {
        PaimonTable table = table(MULTI_COMMIT);
        List<PaimonTableProcedureHandle> procedures = List.of(
                new PaimonOptimizeHandle(table, OptionalLong.of(3), Optional.of(table.location().appendPath("_trino-optimize-1").toString())),
                new PaimonOptimizeHandle(table, OptionalLong.empty(), Optional.empty()),
                new PaimonExpireSnapshotsHandle(new Duration(7, DAYS)),
                new PaimonRemoveOrphanFilesHandle(Duration.valueOf("90m")));
        for (PaimonTableProcedureHandle procedure : procedures) {
            PaimonTableExecuteHandle handle = new PaimonTableExecuteHandle(table.name(), procedure);
            String json = MAPPER.writeValueAsString(handle);
            assertThat(json).contains("\"@procedure\":\"%s\"".formatted(procedure.id().name().toLowerCase(ENGLISH)));
            assertThat(MAPPER.readValue(json, PaimonTableExecuteHandle.class)).as(json).isEqualTo(handle);
        }
        assertThatThrownBy(() -> new PaimonTableExecuteHandle(table.name(), new PaimonExpireSnapshotsHandle(new Duration(1, DAYS))).optimize())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("EXPIRE_SNAPSHOTS");
    }

    private PaimonTable table(String name)
    {
        return new PaimonTable(new SchemaTableName(DATABASE, name), location(name), new SchemaFiles(fileSystem, location(name)).latestSchema().orElseThrow());
    }

    private static Location location(String name)
    {
        return Location.of("local:///warehouse/" + DATABASE + ".db/" + name);
    }
}
