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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CREATE TABLE, DROP TABLE and COMMENT through SQL, checked against Paimon Java 1.4.2: each table Trino creates is
 * also created by Paimon Java's catalog from the equivalent {@code Schema}, and the two schema files must say the
 * same (fields, ids, types, nullability, keys, options, comments; only the creation time differs).
 */
final class TestPaimonCreateTable
        extends AbstractPaimonJavaQueryTest
{
    private static final String TRINO = "created";
    private static final String JAVA = "java";
    private static final ObjectMapper JSON = new ObjectMapper();

    TestPaimonCreateTable()
    {
        super(TRINO);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        paimon.createDatabase(JAVA);
    }

    @Test
    void everyTypeIsStoredAsPaimonJavaStoresIt()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE all_types (
                    id bigint,
                    dt varchar,
                    c_boolean boolean,
                    c_tinyint tinyint,
                    c_smallint smallint,
                    c_int integer NOT NULL COMMENT 'never null',
                    c_real real,
                    c_double double,
                    c_decimal decimal(20, 2),
                    c_char char(5),
                    c_varchar varchar(10),
                    c_varbinary varbinary,
                    c_date date,
                    c_time time(3),
                    c_timestamp timestamp(6),
                    c_timestamp9 timestamp(9),
                    c_ltz timestamp(3) with time zone,
                    c_array array(integer),
                    c_map map(varchar, bigint),
                    c_row row(x integer, y varchar),
                    c_nested array(row(a double, b map(varchar, array(integer)), c row(d integer, e row(f bigint)))),
                    c_last integer)
                COMMENT 'every type'
                WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2)""");
        Table java = paimon().createTable(JAVA, "all_types", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("c_boolean", DataTypes.BOOLEAN())
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT().notNull(), "never null")
                .column("c_real", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal", DataTypes.DECIMAL(20, 2))
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(10))
                .column("c_varbinary", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME(3))
                .column("c_timestamp", DataTypes.TIMESTAMP(6))
                .column("c_timestamp9", DataTypes.TIMESTAMP(9))
                .column("c_ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("c_map", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("c_row", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()), DataTypes.FIELD(1, "y", DataTypes.STRING())))
                .column("c_nested", DataTypes.ARRAY(DataTypes.ROW(
                        DataTypes.FIELD(0, "a", DataTypes.DOUBLE()),
                        DataTypes.FIELD(1, "b", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.INT()))),
                        DataTypes.FIELD(2, "c", DataTypes.ROW(
                                DataTypes.FIELD(3, "d", DataTypes.INT()),
                                DataTypes.FIELD(4, "e", DataTypes.ROW(DataTypes.FIELD(5, "f", DataTypes.BIGINT()))))))))
                .column("c_last", DataTypes.INT())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "2")
                .comment("every type")
                .build());

        assertSameSchema("all_types", 0);
        FileStoreTable trino = (FileStoreTable) paimon().getTable(TRINO, "all_types");
        assertThat(trino.rowType()).isEqualTo(java.rowType());
        assertThat(trino.schema().highestFieldId()).isEqualTo(((FileStoreTable) java).schema().highestFieldId()).isEqualTo(29);
    }

    @Test
    void primaryKeyTableWithoutBucketIsDynamicAndStoresNoDefaults()
            throws Exception
    {
        assertUpdate("CREATE TABLE dynamic_bucket (k integer, v varchar) WITH (primary_key = ARRAY['k'])");
        paimon().createTable(JAVA, "dynamic_bucket", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .build());

        assertSameSchema("dynamic_bucket", 0);
        assertThat(schemaJson(TRINO, "dynamic_bucket", 0).get("options").isEmpty()).isTrue();
        FileStoreTable trino = (FileStoreTable) paimon().getTable(TRINO, "dynamic_bucket");
        assertThat(new CoreOptions(trino.options()).bucket()).isEqualTo(-1);
        assertThat(trino.rowType().getField("k").type().isNullable()).isFalse();
    }

    @Test
    void typedPropertiesAndOptionsBecomeTheOptionsPaimonJavaWrites()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE aggregated (k integer, total bigint, latest timestamp(3), seq bigint)
                WITH (
                    primary_key = ARRAY['k'],
                    bucket = 4,
                    bucket_key = ARRAY['k'],
                    merge_engine = 'aggregation',
                    sequence_field = ARRAY['seq'],
                    changelog_producer = 'lookup',
                    deletion_vectors_enabled = true,
                    file_format = 'parquet',
                    options = ARRAY['fields.total.aggregate-function=sum', 'fields.latest.aggregate-function=max', 'write-only=true'])""");
        paimon().createTable(JAVA, "aggregated", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("total", DataTypes.BIGINT())
                .column("latest", DataTypes.TIMESTAMP(3))
                .column("seq", DataTypes.BIGINT())
                .primaryKey("k")
                .option("bucket", "4")
                .option("bucket-key", "k")
                .option("merge-engine", "aggregation")
                .option("sequence.field", "seq")
                .option("changelog-producer", "lookup")
                .option("deletion-vectors.enabled", "true")
                .option("file.format", "parquet")
                .option("fields.total.aggregate-function", "sum")
                .option("fields.latest.aggregate-function", "max")
                .option("write-only", "true")
                .build());

        assertSameSchema("aggregated", 0);
        assertThat((String) computeScalar("SHOW CREATE TABLE aggregated")).isEqualTo("""
                CREATE TABLE paimon.created.aggregated (
                   k integer NOT NULL,
                   total bigint,
                   latest timestamp(3),
                   seq bigint
                )
                WITH (
                   bucket = 4,
                   bucket_key = ARRAY['k'],
                   changelog_producer = 'lookup',
                   deletion_vectors_enabled = true,
                   file_format = 'parquet',
                   merge_engine = 'aggregation',
                   options = ARRAY['fields.latest.aggregate-function=max','fields.total.aggregate-function=sum','write-only=true'],
                   primary_key = ARRAY['k'],
                   sequence_field = ARRAY['seq']
                )""");
    }

    @Test
    void keysGivenAsPaimonOptionsAreMovedIntoTheSchema()
            throws Exception
    {
        assertUpdate("CREATE TABLE keys_as_options (dt varchar, k integer, v varchar) WITH (options = ARRAY['primary-key=dt, k', 'partition=dt', 'bucket=1'])");
        paimon().createTable(JAVA, "keys_as_options", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .option("primary-key", "dt, k")
                .option("partition", "dt")
                .option("bucket", "1")
                .build());

        assertSameSchema("keys_as_options", 0);
    }

    @Test
    void nullablePrimaryKeyKeepsKeyColumnsNullable()
            throws Exception
    {
        assertUpdate("CREATE TABLE nullable_key (k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1, options = ARRAY['primary-key.nullable=true'])");
        paimon().createTableWithNullableKeys(JAVA, "nullable_key", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .build());

        assertSameSchema("nullable_key", 0);
        assertThat(paimon().getTable(TRINO, "nullable_key").rowType().getField("k").type().isNullable()).isTrue();
        assertQuery("SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'created' AND table_name = 'nullable_key' AND column_name = 'k'", "VALUES 'YES'");
    }

    @Test
    void appendTableIsCreated()
            throws Exception
    {
        assertUpdate("CREATE TABLE append_log (id bigint, line varchar) WITH (bucket = 2, bucket_key = ARRAY['id'])");
        paimon().createTable(JAVA, "append_log", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("line", DataTypes.STRING())
                .option("bucket", "2")
                .option("bucket-key", "id")
                .build());

        assertSameSchema("append_log", 0);
    }

    @Test
    void invalidTablesAreRefusedAndLeaveNothing()
    {
        assertRefused("pk_missing", "(k integer, v varchar) WITH (primary_key = ARRAY['nope'])",
                "Table created.pk_missing: Table column [k, v] should include all primary key constraint [nope]");
        assertRefused("pk_duplicate", "(k integer, v varchar) WITH (primary_key = ARRAY['k', 'k'])",
                "Table created.pk_duplicate: Primary key constraint [k, k] must not contain duplicate columns. Found: [k]");
        assertRefused("partition_missing", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], partitioned_by = ARRAY['dt'])",
                "Table created.partition_missing: Table column [k, v] should include all partition fields [dt]");
        assertRefused("pk_is_partition", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], partitioned_by = ARRAY['k'])",
                "Table created.pk_is_partition: Primary key constraint [k] should not be same with partition fields [k], this will result in only one record in a partition");
        assertRefused("pk_nested", "(k array(integer), v varchar) WITH (primary_key = ARRAY['k'])",
                "Table created.pk_nested: The type ArrayType in primary key field k is unsupported");
        assertRefused("partition_nested", "(k integer, p map(varchar, integer)) WITH (primary_key = ARRAY['k'], partitioned_by = ARRAY['p'])",
                "Table created.partition_nested: The type MapType in partition field p is unsupported");
        assertRefused("bucket_zero", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 0)",
                "Table created.bucket_zero: The number of buckets needs to be greater than 0.");
        assertRefused("postpone_append", "(k integer, v varchar) WITH (bucket = -2)",
                "Table created.postpone_append: The number of buckets needs to be greater than 0.");
        assertRefused("dynamic_with_key", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket_key = ARRAY['k'])",
                "Table created.dynamic_with_key: Cannot define 'bucket-key' with bucket = -1, please remove the 'bucket-key' setting or specify a bucket number.");
        assertRefused("bucket_key_outside_pk", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 2, bucket_key = ARRAY['v'])",
                "Table created.bucket_key_outside_pk: Primary keys [k] should contains all bucket keys [v].");
        assertRefused("bucket_key_missing", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 2, bucket_key = ARRAY['x'])",
                "Table created.bucket_key_missing: Field names [k, v] should contains all bucket keys [x].");
        assertRefused("bucket_key_partition", "(dt varchar, k integer) WITH (primary_key = ARRAY['dt', 'k'], partitioned_by = ARRAY['dt'], bucket = 2, bucket_key = ARRAY['dt'])",
                "Table created.bucket_key_partition: Bucket keys [dt] should not in partition keys [dt].");
        assertRefused("append_no_bucket_key", "(k integer, v varchar) WITH (bucket = 2)",
                "Table created.append_no_bucket_key: You should define a 'bucket-key' for bucketed append mode.");
        assertRefused("append_nested_bucket_key", "(k integer, v array(integer)) WITH (bucket = 2, bucket_key = ARRAY['v'])",
                "Table created.append_nested_bucket_key: nested type can not in bucket-key, in your table these key are [v]");
        assertRefused("sequence_missing", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], sequence_field = ARRAY['ts'])",
                "Table created.sequence_missing: Sequence field: 'ts' can not be found in table schema.");
        assertRefused("sequence_twice", "(k integer, ts bigint) WITH (primary_key = ARRAY['k'], sequence_field = ARRAY['ts', 'ts'])",
                "Table created.sequence_twice: Sequence field 'ts' is defined repeatedly.");
        assertRefused("sequence_first_row", "(k integer, ts bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'first-row', sequence_field = ARRAY['ts'])",
                "Table created.sequence_first_row: Do not support use sequence field on FIRST_ROW merge engine.");
        assertRefused("sequence_cross_partition", "(dt varchar, k integer, ts bigint) WITH (primary_key = ARRAY['k'], partitioned_by = ARRAY['dt'], sequence_field = ARRAY['ts'])",
                "Table created.sequence_cross_partition: You can not use sequence.field in cross partition update case (Primary key constraint '[k]' not include all partition fields '[dt]').");
        assertRefused("unknown_engine", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], merge_engine = 'last-wins')",
                "Table created.unknown_engine: option 'merge-engine' has value 'last-wins', expected one of deduplicate, partial-update, aggregation, first-row");
        assertRefused("unknown_field_option", "(k integer, v bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.w.aggregate-function=sum'])",
                "Table created.unknown_field_option: Field w can not be found in table schema.");
        assertRefused("unknown_function", "(k integer, v bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.v.aggregate-function=median'])",
                "Table created.unknown_function column 'v': Could not find any factory for identifier 'median' that implements 'org.apache.paimon.mergetree.compact.aggregate.factory.FieldAggregatorFactory' in the classpath.");
        assertRefused("sum_of_text", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.v.aggregate-function=sum'])",
                "Table created.sum_of_text column 'v': Data type for sum column must be 'NumericType' but was 'varchar'.");
        assertRefused("aggregate_on_sequence", "(k integer, ts bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', sequence_field = ARRAY['ts'], options = ARRAY['fields.ts.aggregate-function=max'])",
                "Table created.aggregate_on_sequence: Should not define aggregation on sequence field: 'ts'.");
        assertRefused("retract_conflict", "(k integer, v bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.v.aggregate-function=sum', 'fields.v.ignore-retract=true', 'aggregation.remove-record-on-delete=true'])",
                "Table created.retract_conflict: Key: 'aggregation.remove-record-on-delete' , default: false (fallback keys: []) and fields.v.ignore-retract have conflicting behavior so should not be enabled at the same time.");
        assertRefused("partial_update_no_group", "(k integer, v bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'partial-update', options = ARRAY['fields.v.aggregate-function=sum'])",
                "Table created.partial_update_no_group: Must use sequence group for aggregation functions but not found for field v.");
        assertRefused("partial_update_conflict", "(k integer, v bigint) WITH (primary_key = ARRAY['k'], merge_engine = 'partial-update', options = ARRAY['ignore-delete=true', 'partial-update.remove-record-on-delete=true'])",
                "Table created.partial_update_conflict: ignore-delete and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time.");
        // T18: no table this connector creates keeps files outside its folder
        assertRefused("outside_path", "(k integer) WITH (options = ARRAY['path=file:///tmp/elsewhere'])",
                "Table created.outside_path: option 'path' would place files outside the table's location; the connector keeps every file of the tables it creates inside it");
        assertRefused("external_paths", "(k integer) WITH (options = ARRAY['data-file.external-paths=file:///tmp/x'])",
                "Table created.external_paths: option 'data-file.external-paths' would place files outside the table's location; the connector keeps every file of the tables it creates inside it");
        assertRefused("path_directory", "(k integer) WITH (options = ARRAY['data-file.path-directory=../..'])",
                "Table created.path_directory: option 'data-file.path-directory' would place files outside the table's location; the connector keeps every file of the tables it creates inside it");
        assertRefused("changelog_append", "(k integer, v varchar) WITH (changelog_producer = 'input')",
                "Table created.changelog_append: Can not set changelog-producer on table without primary keys, please define primary keys.");
        assertRefused("first_row_changelog", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], merge_engine = 'first-row', changelog_producer = 'input')",
                "Table created.first_row_changelog: Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine");
        assertRefused("first_row_deletion_vectors", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], merge_engine = 'first-row', deletion_vectors_enabled = true)",
                "Table created.first_row_deletion_vectors: First row merge engine does not need deletion vectors because there is no deletion of old data in this merge engine.");
        assertRefused("nullable_key_append", "(k integer, v varchar) WITH (options = ARRAY['primary-key.nullable=true'])",
                "Table created.nullable_key_append: Option 'primary-key.nullable' can only be enabled for a table with primary keys.");
        assertRefused("system_field", "(k integer, rowkind varchar) WITH (primary_key = ARRAY['k'])",
                "Table created.system_field: Field name[rowkind] in schema cannot be exist in [_SEQUENCE_NUMBER, _VALUE_KIND, _LEVEL, rowkind, _ROW_ID]");
        assertRefused("option_twice", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 2, options = ARRAY['bucket=3'])",
                "Table created.option_twice: option 'bucket' is given both as table property 'bucket' and in 'options'");
        assertRefused("key_twice", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['primary-key=k'])",
                "Table created.key_twice: Cannot define primary key on DDL and table options at the same time.");
        assertRefused("bad_bucket_option", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['deletion-vectors.enabled=maybe'])",
                "Table created.bad_bucket_option: option 'deletion-vectors.enabled' has value 'maybe', expected true or false");
        assertRefused("retain_min_zero", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['snapshot.num-retained.min=0'])",
                "Table created.retain_min_zero: snapshot.num-retained.min should be at least 1");
        assertRefused("retain_min_above_max", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['snapshot.num-retained.min=5', 'snapshot.num-retained.max=3'])",
                "Table created.retain_min_above_max: snapshot.num-retained.min should not be larger than snapshot.num-retained.max");
        // the changelog's bounds default to the snapshot's: a changelog minimum above the snapshot maximum is refused
        assertRefused("changelog_retain", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['snapshot.num-retained.max=20', 'changelog.num-retained.min=30'])",
                "Table created.changelog_retain: changelog.num-retained.min should not be larger than changelog.num-retained.max");
        assertRefused("changelog_retain_zero", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['changelog.num-retained.min=0'])",
                "Table created.changelog_retain_zero: changelog.num-retained.min should be at least 1");
        assertRefused("retain_not_a_number", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['snapshot.num-retained.min=ten'])",
                "Table created.retain_not_a_number: option 'snapshot.num-retained.min' has value 'ten', expected an integer");
        assertRefused("bucket_not_a_number", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], options = ARRAY['bucket=abc'])",
                "Table created.bucket_not_a_number: option 'bucket' has value 'abc', expected an integer");
        // a function's parameters are read like every other option: Paimon reads distinct as a boolean, count-limit as an integer
        assertRefused("distinct_not_boolean", "(k integer, v array(integer)) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.v.aggregate-function=collect', 'fields.v.distinct=maybe'])",
                "Table created.distinct_not_boolean: option 'fields.v.distinct' has value 'maybe', expected true or false");
        assertRefused("count_limit_not_a_number", "(k integer, v array(row(a integer))) WITH (primary_key = ARRAY['k'], merge_engine = 'aggregation', options = ARRAY['fields.v.aggregate-function=nested_update', 'fields.v.count-limit=ten'])",
                "Table created.count_limit_not_a_number: option 'fields.v.count-limit' has value 'ten', expected an integer");
        assertRefused("unknown_changelog_producer", "(k integer, v varchar) WITH (primary_key = ARRAY['k'], changelog_producer = 'inputs')",
                "Table created.unknown_changelog_producer: option 'changelog-producer' has value 'inputs', expected one of none, input, full-compaction, lookup");
        assertRefused("time_precision", "(k integer, t time(12)) WITH (primary_key = ARRAY['k'])",
                "Table created.time_precision column 't': Paimon cannot store type time(12): the precision is at most 9");
        assertRefused("unsupported_type", "(k integer, u uuid) WITH (primary_key = ARRAY['k'])",
                "Table created.unsupported_type column 'u': Paimon cannot store type uuid");
        assertRefused("anonymous_row_field", "(k integer, r row(integer, varchar)) WITH (primary_key = ARRAY['k'])",
                "Table created.anonymous_row_field column 'r': Paimon cannot store type row(integer, varchar): every row field needs a name");
    }

    /**
     * Boolean options are read one way everywhere: a value other than true or false fails the statement with the
     * option named, where some paths used to take it as false (or, for a default of true, as true) silently.
     */
    @Test
    void booleanOptionsOtherThanTrueOrFalseAreRefused()
    {
        for (String option : java.util.List.of("metadata.stats-dense-store", "write-only", "write-buffer-spillable")) {
            String table = "bad_" + option.replaceAll("[^a-z]", "_");
            assertQueryFails(
                    "CREATE TABLE %s WITH (primary_key = ARRAY['k'], bucket = 1, options = ARRAY['%s=yes']) AS SELECT 1 AS k, 'a' AS v".formatted(table, option),
                    ".*Table created\\.%s: option '%s' has value 'yes', expected true or false".formatted(table, option.replace(".", "\\.")));
        }
    }

    @Test
    void createIfNotExistsKeepsTheExistingTable()
            throws Exception
    {
        assertUpdate("CREATE TABLE kept (k integer, v varchar) WITH (primary_key = ARRAY['k'], bucket = 1)");
        byte[] schema = Files.readAllBytes(tableFolder(TRINO, "kept").resolve("schema/schema-0"));

        assertUpdate("CREATE TABLE IF NOT EXISTS kept (other bigint)");
        assertQueryFails("CREATE TABLE kept (other bigint)", ".*Table 'paimon\\.created\\.kept' already exists");

        assertThat(Files.readAllBytes(tableFolder(TRINO, "kept").resolve("schema/schema-0"))).isEqualTo(schema);
        assertThat(listFiles(tableFolder(TRINO, "kept").resolve("schema"))).containsExactly("schema-0");
        assertQueryFails("CREATE TABLE no_such_schema.t (k integer)", ".*Schema no_such_schema not found|.*Schema 'paimon\\.no_such_schema' does not exist");
    }

    /** Paimon keeps no views in a folder catalog, so none is listed and CREATE VIEW is refused, naming the view. */
    @Test
    void folderCatalogKeepsNoViews()
    {
        assertQueryFails("CREATE VIEW folder_view AS SELECT 1 x", ".*View created\\.folder_view: Paimon keeps views only in Hive Metastore and REST catalogs.*");
        assertQuery("SELECT count(*) FROM information_schema.views WHERE table_schema = 'created'", "VALUES 0");
        // with no views to find, renames and comments of views fail on the name
        assertQueryFails("ALTER VIEW folder_view RENAME TO other_view", ".*View 'paimon\\.created\\.folder_view' does not exist.*");
        assertQueryFails("COMMENT ON VIEW folder_view IS 'c'", ".*View 'paimon\\.created\\.folder_view' does not exist.*");
    }

    @Test
    void dropTableRemovesItsFolder()
    {
        Table table = paimon().createTable(TRINO, "with_data", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(table, List.of(GenericRow.of(1, BinaryString.fromString("a")), GenericRow.of(2, BinaryString.fromString("b"))));
        assertQuery("SELECT count(*) FROM with_data", "VALUES 2");

        assertUpdate("DROP TABLE with_data");

        assertThat(tableFolder(TRINO, "with_data")).doesNotExist();
        assertQueryFails("SELECT * FROM with_data", ".*Table 'paimon\\.created\\.with_data' does not exist");
        assertUpdate("DROP TABLE IF EXISTS with_data");
    }

    @Test
    void commentsWriteTheNextSchemaAsPaimonJavaDoes()
            throws Exception
    {
        assertUpdate("CREATE TABLE commented (k integer, v varchar COMMENT 'first') COMMENT 'before' WITH (primary_key = ARRAY['k'], bucket = 1)");
        paimon().createTable(JAVA, "commented", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING(), "first")
                .primaryKey("k")
                .option("bucket", "1")
                .comment("before")
                .build());
        assertSameSchema("commented", 0);

        assertUpdate("COMMENT ON TABLE commented IS 'after'");
        paimon().alterTable(JAVA, "commented", SchemaChange.updateComment("after"));
        assertSameSchema("commented", 1);

        assertUpdate("COMMENT ON COLUMN commented.v IS 'second'");
        paimon().alterTable(JAVA, "commented", SchemaChange.updateColumnComment("v", "second"));
        assertSameSchema("commented", 2);

        assertUpdate("COMMENT ON TABLE commented IS NULL");
        paimon().alterTable(JAVA, "commented", SchemaChange.updateComment(null));
        assertSameSchema("commented", 3);

        assertThat((String) computeScalar("SELECT comment FROM information_schema.columns WHERE table_schema = 'created' AND table_name = 'commented' AND column_name = 'v'")).isEqualTo("second");
        assertThat(paimon().getTable(TRINO, "commented").comment()).isEmpty();
    }

    @Test
    void addColumnWritesTheNextSchemaAsPaimonJavaDoes()
            throws Exception
    {
        assertUpdate("CREATE TABLE widened (k integer, r row(a integer, b varchar), dt varchar) WITH (primary_key = ARRAY['dt', 'k'], partitioned_by = ARRAY['dt'], bucket = 1)");
        paimon().createTable(JAVA, "widened", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("r", DataTypes.ROW(DataTypes.FIELD(0, "a", DataTypes.INT()), DataTypes.FIELD(1, "b", DataTypes.STRING())))
                .column("dt", DataTypes.STRING())
                .primaryKey("dt", "k")
                .partitionKeys("dt")
                .option("bucket", "1")
                .build());

        assertUpdate("ALTER TABLE widened ADD COLUMN extra row(x double, y array(row(z bigint))) COMMENT 'added'");
        paimon().alterTable(JAVA, "widened", SchemaChange.addColumn("extra", DataTypes.ROW(
                DataTypes.FIELD(0, "x", DataTypes.DOUBLE()),
                DataTypes.FIELD(1, "y", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(2, "z", DataTypes.BIGINT()))))), "added"));
        assertSameSchema("widened", 1);
        assertThat(schemaJson(TRINO, "widened", 1).get("highestFieldId").asInt()).isEqualTo(8);

        assertQueryFails("ALTER TABLE widened ADD COLUMN required integer NOT NULL", "Column required cannot specify NOT NULL in the created.widened table.");
        assertThat(listFiles(tableFolder(TRINO, "widened").resolve("schema"))).containsExactly("schema-0", "schema-1");
    }

    @Test
    void hostileIdentifiersCreateAndDropCleanly()
    {
        String table = "\"we\"\"ird tâble ☃\"";
        assertUpdate("CREATE TABLE " + table + " (\"k ey\" integer, \"quo\"\"te\" varchar, \"ünï\" bigint) WITH (primary_key = ARRAY['k ey'], bucket = 1)");
        Table java = paimon().getTable(TRINO, "we\"ird tâble ☃");
        assertThat(java.rowType().getFieldNames()).containsExactly("k ey", "quo\"te", "ünï");
        assertThat(java.primaryKeys()).containsExactly("k ey");
        assertQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'created' AND table_name LIKE 'we%'", "VALUES 'we\"ird tâble ☃'");

        assertUpdate("DROP TABLE " + table);
        assertThat(tableFolder(TRINO, "we\"ird tâble ☃")).doesNotExist();
    }

    @Test
    void createTableAsOfPrimaryKeyTableIsReadByPaimonJava()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE ctas_keyed WITH (primary_key = ARRAY['id'], bucket = 2) AS
                SELECT CAST(id AS integer) id, CAST(name AS varchar) name
                FROM (VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')) t(id, name)""", 4);
        paimon().createTable(JAVA, "ctas_keyed", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "2")
                .build());
        assertSameSchema("ctas_keyed", 0);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_keyed")))
                .containsExactly("+I(1, one)", "+I(2, two)", "+I(3, three)", "+I(4, four)");
        assertQuery("SELECT * FROM ctas_keyed", "VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')");

        // the table exists: IF NOT EXISTS writes nothing
        assertUpdate("CREATE TABLE IF NOT EXISTS ctas_keyed AS SELECT 9 id, 'nine' name", 0);
        assertThat(listFiles(tableFolder(TRINO, "ctas_keyed").resolve("snapshot"))).contains("snapshot-1").doesNotContain("snapshot-2");
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_keyed")))
                .containsExactly("+I(1, one)", "+I(2, two)", "+I(3, three)", "+I(4, four)");
        assertQueryFails("CREATE TABLE ctas_keyed AS SELECT 9 id, 'nine' name", ".*already exists.*");
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_keyed"))).hasSize(4);
    }

    @Test
    void createTableAsOfPartitionedTableIsReadByPaimonJava()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE ctas_partitioned WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 3) AS
                SELECT CAST(dt AS varchar) dt, CAST(id AS bigint) id, CAST(score AS double) score
                FROM (VALUES ('2024-01-01', 1, 1.5), ('2024-01-01', 2, 2.5), ('2024-01-02', 1, 3.5)) t(dt, id, score)""", 3);
        paimon().createTable(JAVA, "ctas_partitioned", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.BIGINT())
                .column("score", DataTypes.DOUBLE())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "3")
                .build());
        assertSameSchema("ctas_partitioned", 0);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_partitioned")))
                .containsExactly("+I(2024-01-01, 1, 1.5)", "+I(2024-01-01, 2, 2.5)", "+I(2024-01-02, 1, 3.5)");
        assertThat(tableFolder(TRINO, "ctas_partitioned").resolve("dt=2024-01-02")).isDirectory();
    }

    @Test
    void createTableAsWithoutPrimaryKeyIsAnAppendTable()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE ctas_append AS
                SELECT CAST(id AS bigint) id, CAST(line AS varchar) line
                FROM (VALUES (1, 'a'), (1, 'a'), (2, 'b')) t(id, line)""", 3);
        Table java = paimon().createTable(JAVA, "ctas_append", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("line", DataTypes.STRING())
                .build());
        assertThat(java.primaryKeys()).isEmpty();
        assertSameSchema("ctas_append", 0);
        // an append table keeps duplicates
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_append")))
                .containsExactly("+I(1, a)", "+I(1, a)", "+I(2, b)");

        assertUpdate("CREATE TABLE ctas_no_data WITH (primary_key = ARRAY['id'], bucket = 1) AS SELECT * FROM ctas_append WITH NO DATA", 0);
        assertSameSchemaAs("ctas_no_data", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("line", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        assertThat(tableFolder(TRINO, "ctas_no_data").resolve("snapshot")).doesNotExist();
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_no_data"))).isEmpty();
    }

    @Test
    void failedCreateTableAsLeavesNoTable()
    {
        assertUpdate("CREATE TABLE ctas_source (id integer) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO ctas_source VALUES 1, 2, 3", 3);
        // the division fails while the rows are written, after schema-0 was written
        assertQueryFails("CREATE TABLE ctas_failed WITH (primary_key = ARRAY['id'], bucket = 2) AS SELECT id, 10 / (id - 2) q FROM ctas_source", ".*Division by zero.*");
        assertThat(tableFolder(TRINO, "ctas_failed")).doesNotExist();
        assertQueryFails("SELECT * FROM ctas_failed", ".*ctas_failed' does not exist.*");
    }

    @Test
    void createTableAsWithNullKeyIsRefusedAndLeavesNoTable()
    {
        // Trino checks NOT NULL for INSERT itself, but a CREATE TABLE AS writes into a table the engine has not seen
        assertQueryFails("CREATE TABLE ctas_null_key WITH (primary_key = ARRAY['id']) AS SELECT * FROM (VALUES (1, 'a'), (CAST(NULL AS integer), 'b')) v(id, s)",
                "NULL value not allowed for NOT NULL column: id");
        assertThat(tableFolder(TRINO, "ctas_null_key")).doesNotExist();
        assertQueryFails("CREATE TABLE ctas_null_key WITH (primary_key = ARRAY['id'], bucket = 1) AS SELECT CAST(NULL AS bigint) id, 'x' s",
                "NULL value not allowed for NOT NULL column: id");
        assertThat(tableFolder(TRINO, "ctas_null_key")).doesNotExist();
        assertQueryFails("""
                CREATE TABLE ctas_null_key WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2) AS
                SELECT * FROM (VALUES ('2024-01-01', BIGINT '1'), ('2024-01-02', NULL)) v(dt, id)""",
                "NULL value not allowed for NOT NULL column: id");
        assertThat(tableFolder(TRINO, "ctas_null_key")).doesNotExist();
        // a NULL partition value of a key column: the partition column is part of the key, NOT NULL too
        assertQueryFails("""
                CREATE TABLE ctas_null_key WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 2) AS
                SELECT * FROM (VALUES ('2024-01-01', BIGINT '1'), (NULL, BIGINT '2')) v(dt, id)""",
                "NULL value not allowed for NOT NULL column: dt");
        assertThat(tableFolder(TRINO, "ctas_null_key")).doesNotExist();
        // a column declared NOT NULL is checked as well
        assertUpdate("CREATE TABLE ctas_not_null_source (id integer, v integer NOT NULL) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertQueryFails("INSERT INTO ctas_not_null_source VALUES (1, NULL)", "NULL value not allowed for NOT NULL column: v");
    }

    @Test
    void createTableAsWithNullableKeyWritesNullKeysPaimonJavaReads()
            throws Exception
    {
        assertUpdate("""
                CREATE TABLE ctas_nullable_key WITH (primary_key = ARRAY['id'], bucket = 1, options = ARRAY['primary-key.nullable=true']) AS
                SELECT * FROM (VALUES (1, 'a'), (CAST(NULL AS integer), 'b'), (2, 'c')) v(id, s)""", 3);
        assertUpdate("INSERT INTO ctas_nullable_key VALUES (NULL, 'd'), (3, 'e')", 2);
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(TRINO, "ctas_nullable_key")))
                .containsExactlyInAnyOrder("+I(null, d)", "+I(1, a)", "+I(2, c)", "+I(3, e)");
        assertQuery("SELECT * FROM ctas_nullable_key", "VALUES (NULL, 'd'), (1, 'a'), (2, 'c'), (3, 'e')");
        assertQuery("SELECT s FROM ctas_nullable_key WHERE id IS NULL", "VALUES 'd'");
        assertQuery("SELECT s FROM ctas_nullable_key WHERE id = 2", "VALUES 'c'");
    }

    @Test
    void refusedCreateTableAsLeavesNothing()
    {
        assertQueryFails("CREATE TABLE ctas_postpone WITH (primary_key = ARRAY['id'], bucket = -2) AS SELECT 1 id, 'x' v",
                ".*Cannot write to Paimon table created.ctas_postpone: the table has postpone buckets \\('bucket' = '-2'\\).*");
        assertThat(tableFolder(TRINO, "ctas_postpone")).doesNotExist();
        assertQueryFails("CREATE TABLE ctas_first_row WITH (primary_key = ARRAY['id'], bucket = 1, options = ARRAY['merge-engine=first-row', 'write-only=true']) AS SELECT 1 id, 'x' v",
                ".*Cannot write to Paimon table created.ctas_first_row: with option 'merge-engine' = 'first-row' .* option 'write-only' = 'true' turns that compaction off");
        assertThat(tableFolder(TRINO, "ctas_first_row")).doesNotExist();
        assertQueryFails(
                withoutCompactionOnWrite(),
                "CREATE TABLE ctas_vectors WITH (primary_key = ARRAY['id'], bucket = 1, options = ARRAY['deletion-vectors.enabled=true']) AS SELECT 1 id, 'x' v",
                ".*Cannot write to Paimon table created.ctas_vectors: with option 'deletion-vectors.enabled' = 'true' .* session property 'compaction_on_write_enabled' = false turns that compaction off");
        assertThat(tableFolder(TRINO, "ctas_vectors")).doesNotExist();
        // a schema Paimon refuses, with CREATE TABLE's message
        assertQueryFails("CREATE TABLE ctas_pk_missing WITH (primary_key = ARRAY['nope']) AS SELECT 1 id", ".*ctas_pk_missing.*nope.*");
        assertThat(tableFolder(TRINO, "ctas_pk_missing")).doesNotExist();
    }

    private void assertSameSchemaAs(String table, Schema schema)
            throws IOException
    {
        paimon().createTable(JAVA, table, schema);
        assertSameSchema(table, 0);
    }

    private void assertRefused(String table, String definition, String message)
    {
        assertQueryFails("CREATE TABLE " + table + " " + definition, Pattern.quote(message));
        assertThat(tableFolder(TRINO, table)).doesNotExist();
    }

    // the schema files Trino and Paimon Java wrote for the same table agree in everything but the creation time
    private void assertSameSchema(String table, long schemaId)
            throws IOException
    {
        assertThat(schemaJson(TRINO, table, schemaId)).isEqualTo(schemaJson(JAVA, table, schemaId));
    }

    private ObjectNode schemaJson(String database, String table, long schemaId)
            throws IOException
    {
        JsonNode json = JSON.readTree(tableFolder(database, table).resolve("schema/schema-" + schemaId).toFile());
        ObjectNode object = (ObjectNode) json;
        assertThat(object.remove("timeMillis")).isNotNull();
        return object;
    }

    private Path tableFolder(String database, String table)
    {
        return paimon().warehouse().resolve(database + ".db").resolve(table);
    }

    private static List<String> listFiles(Path folder)
            throws IOException
    {
        try (var files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
