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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.TypeOperators;
import io.trino.testing.MaterializedResult;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RowType.field;
import static io.trino.spi.type.RowType.rowType;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metadata of tables that Paimon Java wrote, seen through SQL: the expectations are the Paimon schemas built
 * below, translated by hand into the Trino types the type mapping promises.
 */
final class TestPaimonMetadataQueries
        extends AbstractPaimonJavaQueryTest
{
    private static final String SCHEMA = "paimon_java";

    TestPaimonMetadataQueries()
    {
        super(SCHEMA);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        paimon.createTable(SCHEMA, "all_types", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT().notNull())
                .column("c_bigint", DataTypes.BIGINT())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal_short", DataTypes.DECIMAL(10, 2))
                .column("c_decimal_long", DataTypes.DECIMAL(38, 10))
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(20))
                .column("c_string", DataTypes.STRING())
                .column("c_binary", DataTypes.BINARY(8))
                .column("c_varbinary", DataTypes.VARBINARY(12))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time0", DataTypes.TIME())
                .column("c_time3", DataTypes.TIME(3))
                .column("c_timestamp0", DataTypes.TIMESTAMP(0))
                .column("c_timestamp3", DataTypes.TIMESTAMP(3))
                .column("c_timestamp6", DataTypes.TIMESTAMP())
                .column("c_timestamp9", DataTypes.TIMESTAMP(9))
                .column("c_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE())
                .column("c_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("c_map", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT()))
                .column("c_multiset", DataTypes.MULTISET(DataTypes.STRING()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(100, "a", DataTypes.INT()), DataTypes.FIELD(101, "b", DataTypes.STRING())))
                .column("c_nested", DataTypes.ARRAY(DataTypes.ROW(
                        DataTypes.FIELD(102, "x", DataTypes.DOUBLE()),
                        DataTypes.FIELD(103, "tags", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.ARRAY(DataTypes.INT()))))))
                .primaryKey("id")
                .option("bucket", "2")
                .build());

        paimon.createTable(SCHEMA, "orders", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("order_id", DataTypes.BIGINT(), "order number")
                .column("customerName", DataTypes.VARCHAR(100))
                .column("price", DataTypes.DECIMAL(12, 2))
                .column("ts", DataTypes.TIMESTAMP(3))
                .partitionKeys("dt")
                .primaryKey("dt", "order_id")
                .comment("orders table")
                .option("bucket", "4")
                .option("bucket-key", "order_id")
                .option("merge-engine", "aggregation")
                .option("sequence.field", "ts")
                .option("changelog-producer", "lookup")
                .option("deletion-vectors.enabled", "true")
                .option("file.format", "parquet")
                .option("fields.price.aggregate-function", "max")
                .option("snapshot.num-retained.max", "20")
                .build());

        paimon.createTable(SCHEMA, "events", Schema.newBuilder()
                .column("event_date", DataTypes.DATE())
                .column("payload", DataTypes.STRING())
                .partitionKeys("event_date")
                .build());

        paimon.createTable(SCHEMA, "with_variant", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("doc", DataTypes.VARIANT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());

        Path broken = Files.createDirectories(paimon.warehouse().resolve(SCHEMA + ".db").resolve("broken").resolve("schema"));
        Files.writeString(broken.resolve("schema-0"), "{\"version\": 3, \"id\": 0, \"fields\": [", UTF_8);

        // a folder without schema files is not a table
        Files.createDirectories(paimon.warehouse().resolve(SCHEMA + ".db").resolve("not_a_table").resolve("bucket-0"));
    }

    @Test
    void showSchemasListsPaimonDatabases()
    {
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet())
                .contains(SCHEMA, "information_schema");
    }

    @Test
    void showTablesListsEveryFolderWithASchemaFile()
    {
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("all_types", "orders", "events", "with_variant", "broken");
    }

    @Test
    void describeMapsEveryPaimonType()
    {
        MaterializedResult result = computeActual("DESCRIBE all_types");
        List<List<Object>> columns = result.getMaterializedRows().stream()
                .map(row -> List.of(row.getField(0), row.getField(1)))
                .collect(toImmutableList());
        assertThat(columns).containsExactly(
                List.of("id", "integer"),
                List.of("c_boolean", "boolean"),
                List.of("c_tinyint", "tinyint"),
                List.of("c_smallint", "smallint"),
                List.of("c_int", "integer"),
                List.of("c_bigint", "bigint"),
                List.of("c_float", "real"),
                List.of("c_double", "double"),
                List.of("c_decimal_short", "decimal(10,2)"),
                List.of("c_decimal_long", "decimal(38,10)"),
                List.of("c_char", "char(5)"),
                List.of("c_varchar", "varchar(20)"),
                List.of("c_string", "varchar"),
                List.of("c_binary", "varbinary"),
                List.of("c_varbinary", "varbinary"),
                List.of("c_bytes", "varbinary"),
                List.of("c_date", "date"),
                List.of("c_time0", "time(0)"),
                List.of("c_time3", "time(3)"),
                List.of("c_timestamp0", "timestamp(0)"),
                List.of("c_timestamp3", "timestamp(3)"),
                List.of("c_timestamp6", "timestamp(6)"),
                List.of("c_timestamp9", "timestamp(9)"),
                List.of("c_ltz3", "timestamp(3) with time zone"),
                List.of("c_ltz6", "timestamp(6) with time zone"),
                List.of("c_array", "array(integer)"),
                List.of("c_map", "map(varchar, bigint)"),
                List.of("c_multiset", "map(varchar, integer)"),
                // row types as the running Trino release displays them (483 quotes the field names)
                List.of("c_row", rowType(field("a", INTEGER), field("b", VARCHAR)).getDisplayName()),
                List.of("c_nested", "array(%s)".formatted(rowType(field("x", DOUBLE), field("tags", new MapType(VARCHAR, new ArrayType(INTEGER), new TypeOperators()))).getDisplayName())));
    }

    @Test
    void showColumnsCarriesPaimonComments()
    {
        MaterializedResult result = computeActual("SHOW COLUMNS FROM orders");
        assertThat(result.getMaterializedRows())
                .extracting(row -> List.of(row.getField(0), row.getField(1), row.getField(3)))
                .containsExactly(
                        List.of("dt", "varchar", ""),
                        List.of("order_id", "bigint", "order number"),
                        List.of("customername", "varchar(100)", ""),
                        List.of("price", "decimal(12,2)", ""),
                        List.of("ts", "timestamp(3)", ""));
    }

    @Test
    void informationSchemaColumnsShowsTypesAndNullability()
    {
        // Paimon forces primary-key columns to NOT NULL when it creates the table
        assertThat(query("""
                SELECT column_name, data_type, is_nullable
                FROM information_schema.columns
                WHERE table_schema = 'paimon_java' AND table_name = 'orders'
                """))
                .matches("""
                        VALUES
                            (VARCHAR 'dt', VARCHAR 'varchar', VARCHAR 'NO'),
                            ('order_id', 'bigint', 'NO'),
                            ('customername', 'varchar(100)', 'YES'),
                            ('price', 'decimal(12,2)', 'YES'),
                            ('ts', 'timestamp(3)', 'YES')
                        """);
        assertThat(query("""
                SELECT data_type, is_nullable
                FROM information_schema.columns
                WHERE table_schema = 'paimon_java' AND table_name = 'all_types' AND column_name IN ('id', 'c_int', 'c_map')
                ORDER BY column_name
                """))
                .matches("VALUES (VARCHAR 'integer', VARCHAR 'NO'), ('map(varchar, bigint)', 'YES'), ('integer', 'NO')");
    }

    @Test
    void informationSchemaColumnsSkipsUnreadableTables()
    {
        assertThat(computeActual("SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'paimon_java'").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("all_types", "orders", "events");
    }

    @Test
    void showCreateTableShowsKeysAndEveryOption()
    {
        assertThat((String) computeScalar("SHOW CREATE TABLE orders")).isEqualTo("""
                CREATE TABLE paimon.paimon_java.orders (
                   dt varchar NOT NULL,
                   order_id bigint NOT NULL COMMENT 'order number',
                   customername varchar(100),
                   price decimal(12, 2),
                   ts timestamp(3)
                )
                COMMENT 'orders table'
                WITH (
                   bucket = 4,
                   bucket_key = ARRAY['order_id'],
                   changelog_producer = 'lookup',
                   deletion_vectors_enabled = true,
                   file_format = 'parquet',
                   merge_engine = 'aggregation',
                   options = ARRAY['fields.price.aggregate-function=max','snapshot.num-retained.max=20'],
                   partitioned_by = ARRAY['dt'],
                   primary_key = ARRAY['dt','order_id'],
                   sequence_field = ARRAY['ts']
                )""");
    }

    @Test
    void showCreateTableOfAppendTable()
    {
        assertThat((String) computeScalar("SHOW CREATE TABLE events")).isEqualTo("""
                CREATE TABLE paimon.paimon_java.events (
                   event_date date,
                   payload varchar
                )
                WITH (
                   partitioned_by = ARRAY['event_date']
                )""");
    }

    @Test
    void unsupportedTypeNamesTableAndColumn()
    {
        assertQueryFails("DESCRIBE with_variant", "Table paimon_java.with_variant column 'doc': Paimon type VARIANT: not supported by the Paimon connector");
    }

    @Test
    void corruptSchemaFileNamesTheFile()
    {
        assertQueryFails("DESCRIBE broken", "Invalid Paimon schema file .*/paimon_java\\.db/broken/schema/schema-0: not valid JSON.*");
    }

    @Test
    void missingTableIsReported()
    {
        assertQueryFails("DESCRIBE no_such_table", ".*Table 'paimon\\.paimon_java\\.no_such_table' does not exist");
        assertQueryFails("DESCRIBE not_a_table", ".*Table 'paimon\\.paimon_java\\.not_a_table' does not exist");
    }

    @Test
    void createAndDropSchemaAreSeenByPaimonJava()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA created_by_trino");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).contains("created_by_trino");
        assertThat(Files.isDirectory(paimon().warehouse().resolve("created_by_trino.db"))).isTrue();
        assertThat(paimonJavaDatabases()).contains("created_by_trino");
        assertQueryFails("CREATE SCHEMA created_by_trino", ".*Schema 'paimon\\.created_by_trino' already exists");

        assertUpdate("DROP SCHEMA created_by_trino");
        assertThat(computeActual("SHOW SCHEMAS").getOnlyColumnAsSet()).doesNotContain("created_by_trino");
        assertThat(Files.exists(paimon().warehouse().resolve("created_by_trino.db"))).isFalse();
        assertThat(paimonJavaDatabases()).doesNotContain("created_by_trino");
    }

    @Test
    void dropSchemaRefusesSchemaWithTables()
    {
        assertQueryFails("DROP SCHEMA paimon_java", ".*Cannot drop non-empty schema 'paimon_java'");
        assertQueryFails("DROP SCHEMA paimon_java CASCADE", "DROP SCHEMA CASCADE is not supported by the Paimon connector.*");
        assertQueryFails("DROP SCHEMA no_such_schema", ".*Schema 'paimon\\.no_such_schema' does not exist");
    }

    private List<String> paimonJavaDatabases()
            throws Exception
    {
        try (PaimonJavaCatalog fresh = new PaimonJavaCatalog(paimon().warehouse())) {
            return fresh.listDatabases();
        }
    }
}
