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

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.trino.testing.sql.TestTable;
import org.intellij.lang.annotations.Language;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trino.testing.TestingNames.randomNameSuffix;
import static java.lang.String.format;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Trino's connector conformance suite. The TPCH fixtures are copied in by {@code CREATE TABLE AS} without
 * properties, as are most of the suite's own tables: append tables, which is what Paimon makes of a table without a
 * primary key. Overrides below assert our own messages where Trino's test expects its generic wording, each with why.
 * Tagged {@code conformance}: it runs in its own Maven lane, {@code -Pconformance}.
 */
@Tag("conformance")
public class TestPaimonConnectorTest
        extends BaseConnectorTest
{
    static final String SCHEMA = "tpch";

    // Trino's SET DATA TYPE setups that are not widenings, by hand from the rule at filterSetColumnTypesDataProvider
    private static final Set<String> REFUSED_COLUMN_TYPE_CHANGES = ImmutableSet.of(
            "bigint -> integer",
            "bigint -> smallint",
            "bigint -> tinyint",
            "decimal(5,3) -> decimal(5,2)",
            "time(3) -> time(6)",
            "time(6) -> time(3)",
            "timestamp(3) -> timestamp(6)",
            "timestamp(6) -> timestamp(3)",
            "timestamp(3) with time zone -> timestamp(6) with time zone",
            "varchar(100) -> varchar(50)",
            "char(25) -> char(20)",
            "char(20) -> varchar",
            "varchar -> char(20)",
            "array(integer) -> array(bigint)",
            "row(x integer) -> row(x bigint)",
            "row(x integer) -> row(y integer)",
            "row(x integer, y integer) -> row(x integer, z integer)",
            "row(x integer) -> row(x integer, y integer)",
            "row(x integer, y integer) -> row(x integer)",
            "row(x integer, y integer) -> row(y integer, x integer)",
            "row(x integer, y integer) -> row(z integer, y integer, x integer)",
            "row(x row(nested integer)) -> row(x row(nested bigint))",
            "row(x row(a integer, b integer)) -> row(x row(b integer, a integer))");

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        return PaimonQueryRunner.createWithTpchTables(SCHEMA, REQUIRED_TPCH_TABLES);
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return switch (connectorBehavior) {
            // UPDATE, MERGE and row-level DELETE change primary-key tables: the tables the suite creates for them get
            // a key (createTestTableForWrites, createTableForWrites, and the overrides below); on an append table
            // DELETE only drops whole partitions or, without WHERE, every file (verifySupportsDeleteDeclaration)
            case SUPPORTS_DELETE,
                    SUPPORTS_ROW_LEVEL_DELETE,
                    SUPPORTS_UPDATE,
                    SUPPORTS_ROW_LEVEL_UPDATE,
                    SUPPORTS_MERGE,
                    SUPPORTS_TRUNCATE -> true;
            // applyLimit only ends split planning once the splits hold enough rows; it guarantees no limit, so Trino
            // keeps its LimitNode; no applyTopN or applyAggregation. applyProjection pushes dereferences of ROW
            // columns (TestNestedFieldProjection), but the suite's dereference tests compare with a session that
            // turns the pushdown off, and the connector has no property for that
            case SUPPORTS_LIMIT_PUSHDOWN,
                    SUPPORTS_TOPN_PUSHDOWN,
                    SUPPORTS_AGGREGATION_PUSHDOWN,
                    SUPPORTS_DEREFERENCE_PUSHDOWN -> false;
            case SUPPORTS_RENAME_SCHEMA,
                    SUPPORTS_DROP_SCHEMA_CASCADE -> false;
            // the filesystem catalog moves the table's folder, also into another schema's folder
            case SUPPORTS_RENAME_TABLE,
                    SUPPORTS_RENAME_TABLE_ACROSS_SCHEMAS -> true;
            // top-level columns are dropped, renamed and widened; ADD COLUMN appends a nullable top-level column;
            // fields inside ROW columns are not changed
            case SUPPORTS_DROP_COLUMN,
                    SUPPORTS_RENAME_COLUMN,
                    SUPPORTS_SET_COLUMN_TYPE -> true;
            case SUPPORTS_ADD_COLUMN_WITH_POSITION,
                    SUPPORTS_ADD_FIELD,
                    SUPPORTS_DROP_FIELD,
                    SUPPORTS_RENAME_FIELD,
                    SUPPORTS_SET_FIELD_TYPE,
                    SUPPORTS_DROP_NOT_NULL_CONSTRAINT -> false;
            // a Paimon filesystem catalog holds tables only
            case SUPPORTS_CREATE_VIEW,
                    SUPPORTS_CREATE_MATERIALIZED_VIEW -> false;
            // Paimon refuses NOT NULL for an added column
            case SUPPORTS_ADD_COLUMN_NOT_NULL_CONSTRAINT -> false;
            case SUPPORTS_NATIVE_QUERY -> false;
            // column default values (SUPPORTS_DEFAULT_COLUMN_VALUE and its SET and DROP, new in Trino 483's suite,
            // so named here and not as constants 476 lacks): the connector declares none
            default -> !connectorBehavior.name().endsWith("DEFAULT_COLUMN_VALUE") && super.hasBehavior(connectorBehavior);
        };
    }

    @Override
    protected Optional<DataMappingTestSetup> filterDataMappingSmokeTestData(DataMappingTestSetup setup)
    {
        if (setup.getTrinoTypeName().equals("time(6)")) {
            // Paimon stores TIME of any precision as milliseconds of the day, so digits below the millisecond are
            // dropped on write: test the type with a high value it can hold
            return Optional.of(new DataMappingTestSetup("time(6)", setup.getSampleValueLiteral(), "TIME '23:59:59.999'"));
        }
        return Optional.of(setup);
    }

    @Override
    @Language("RegExp")
    protected String errorMessageForInsertIntoNotNullColumn(String columnName)
    {
        // the engine's check: the connector declares the column NOT NULL
        return "NULL value not allowed for NOT NULL column: " + columnName;
    }

    @Override
    protected TestTable createTableWithDefaultColumns()
    {
        // Trino 476 has no column defaults in SQL, so the engine writes NULL for an omitted column
        return abort("Column defaults are not part of Trino 476's SQL");
    }

    @Override
    protected void verifyConcurrentAddColumnFailurePermissible(Exception e)
    {
        // each ALTER writes schema-<n+1> as of the schema it read; the loser of the race fails and can be retried
        assertThat(e).hasMessageMatching("Table tpch\\.test_add_column\\w+: schema \\d+ was committed by another writer meanwhile; retry the statement");
    }

    @Override
    protected void verifyVersionedQueryFailurePermissible(Exception e)
    {
        // nation has one snapshot, committed now, and no tags; a version is a snapshot id or a tag name
        assertThat(e).hasMessageMatching(
                "Table tpch\\.nation has no snapshot \\d+; the latest snapshot is \\d+|" +
                        "Table tpch\\.nation has no tag '.*'|" +
                        "Table tpch\\.nation has no snapshot committed at or before .*|" +
                        "Table tpch\\.nation: a version is a snapshot id or a tag name, not a .*|" +
                        "Table tpch\\.nation: FOR TIMESTAMP AS OF takes a timestamp, not a .*");
    }

    // SET DATA TYPE changes a column only to a type that holds every value of the old one (a larger integer type,
    // REAL to DOUBLE, a longer VARCHAR or VARBINARY, a DECIMAL of higher precision and the same scale), since files
    // written before are read as the new type; Paimon's narrowing and string conversions are refused. Trino's
    // testSetColumnTypes stops at the first setup marked unsupported, which would leave the widenings after it
    // untested: the refused setups are left out here and asserted, each one, in testSetColumnTypeRefused below.
    @Override
    protected Optional<SetColumnTypeSetup> filterSetColumnTypesDataProvider(SetColumnTypeSetup setup)
    {
        if (REFUSED_COLUMN_TYPE_CHANGES.contains(unquoted(setup.sourceColumnType()) + " -> " + unquoted(setup.newColumnType()))) {
            return Optional.empty();
        }
        // Trino 483's suite adds changes inside ARRAY, MAP and ROW columns beyond those listed (nested arrays, map
        // values): every change of a nested column is refused, as the listed ones assert
        if (setup.sourceColumnType().matches("(array|map|row)\\(.*")) {
            return Optional.empty();
        }
        return Optional.of(setup);
    }

    @Override
    protected void verifySetColumnTypeFailurePermissible(Throwable e)
    {
        // the widening rule for primitive columns; ARRAY, MAP and ROW columns keep their types
        assertThat(e).hasMessageMatching("Table tpch\\.test_\\w+: cannot change column 'col' from .+ to .+; " +
                "the Paimon connector changes a column only to a type that holds every value of the old one: .*|" +
                "Table tpch\\.test_\\w+: cannot change column 'col' to .+; the Paimon connector changes only the types of columns of a primitive type");
    }

    // a type as Trino 476 writes it: Trino 483 quotes the field names of a row type, row("x" integer)
    private static String unquoted(String type)
    {
        return type.replace("\"", "");
    }

    /**
     * A folder catalog keeps no views, as Paimon's own does not: the refusal names the view and where Paimon keeps
     * views, in place of the engine's generic "does not support creating views".
     */
    /**
     * The suite's MERGE of a large table runs on a primary-key Parquet table here (createTableForWrites gives it a
     * key), which is what TestPaimonParquetPrimaryKeyConnectorTest runs it on too: 30 s of each CI lane saved.
     */
    @Test
    @Override
    public void testMergeLarge()
    {
        abort("the same primary-key Parquet table as TestPaimonParquetPrimaryKeyConnectorTest's, which runs it");
    }

    @Test
    @Override
    public void testView()
    {
        assertQueryFails("CREATE VIEW nation_v AS SELECT * FROM nation",
                "View tpch\\.nation_v: Paimon keeps views only in Hive Metastore and REST catalogs \\(paimon\\.catalog\\.type\\)");
    }

    @Test
    public void testSetColumnTypeRefused()
    {
        // a value of each source type; Trino reports the column type as written in REFUSED_COLUMN_TYPE_CHANGES
        Map<String, String> values = ImmutableMap.<String, String>builder()
                .put("bigint", "BIGINT '-128'")
                .put("decimal(5,3)", "12.345")
                .put("time(3)", "TIME '15:03:00.123'")
                .put("time(6)", "TIME '15:03:00.123'")
                .put("timestamp(3)", "TIMESTAMP '2020-02-12 15:03:00.123'")
                .put("timestamp(6)", "TIMESTAMP '2020-02-12 15:03:00.123456'")
                .put("timestamp(3) with time zone", "TIMESTAMP '2020-02-12 15:03:00.123 +01:00'")
                .put("varchar(100)", "'shorten-varchar'")
                .put("char(25)", "'shorten-char'")
                .put("char(20)", "'char-to-varchar'")
                .put("varchar", "'varchar-to-char'")
                .put("array(integer)", "array[1]")
                .put("row(x integer)", "row(1)")
                .put("row(x integer, y integer)", "row(1, 2)")
                .put("row(x row(nested integer))", "row(row(1))")
                .put("row(x row(a integer, b integer))", "row(row(1, 2))")
                .buildOrThrow();
        for (String change : REFUSED_COLUMN_TYPE_CHANGES) {
            String[] types = change.split(" -> ");
            String sourceType = types[0];
            String newType = types[1];
            try (TestTable table = newTrinoTable("test_set_column_type_refused_", "AS SELECT CAST(" + values.get(sourceType) + " AS " + sourceType + ") AS col")) {
                assertThatThrownBy(() -> assertUpdate("ALTER TABLE " + table.getName() + " ALTER COLUMN col SET DATA TYPE " + newType))
                        .satisfies(this::verifySetColumnTypeFailurePermissible);
                // nothing changed: the column keeps its type and its value
                assertThat(unquoted(getColumnType(table.getName(), "col"))).isEqualTo(sourceType);
                assertThat(query("SELECT col = CAST(" + values.get(sourceType) + " AS " + sourceType + ") FROM " + table.getName()))
                        .matches("VALUES true");
            }
        }
    }

    // The suite expects no dereference pushed down unless SUPPORTS_DEREFERENCE_PUSHDOWN is declared, which would also run
    // its comparisons with a connector session property that turns the pushdown off, one the connector lacks. The
    // connector pushes dereferences of ROW columns into the scan (PaimonMetadata.applyProjection): no projection is
    // left above it, and the fields read equal those read with all pushdown into connectors off.
    @Test
    @Override
    public void testProjectionPushdown()
    {
        try (TestTable table = newTrinoTable("test_projection_pushdown", "(id BIGINT, root ROW(f1 BIGINT, f2 BIGINT))", List.of("(1, ROW(1, 2))", "(2, NULL)", "(3, ROW(3, NULL))"))) {
            assertThat(query("SELECT id, root.f1 FROM " + table.getName()))
                    .matches("VALUES (BIGINT '1', BIGINT '1'), (BIGINT '2', CAST(NULL AS BIGINT)), (BIGINT '3', BIGINT '3')")
                    .isFullyPushedDown();
            assertThat(query("SELECT root.f2 FROM " + table.getName() + " WHERE id = 1"))
                    .matches("VALUES BIGINT '2'");
        }
    }

    // Trino skips this check when SUPPORTS_DELETE is declared; it is kept for append tables, which have no row-level
    // DELETE: a DELETE without WHERE drops every file of the table in one OVERWRITE snapshot, as TRUNCATE does, a
    // DELETE whose WHERE names partition columns only drops those partitions, and any other DELETE is refused with a
    // message saying so
    @Test
    @Override
    public void verifySupportsDeleteDeclaration()
    {
        try (TestTable table = newTrinoTable("test_supports_delete", "AS SELECT * FROM region")) {
            assertUpdate("DELETE FROM " + table.getName(), 5);
            assertQuery("SELECT count(*) FROM " + table.getName(), "VALUES 0");
        }
        try (TestTable table = newTrinoTable("test_supports_delete", "WITH (partitioned_by = ARRAY['regionkey']) AS SELECT nationkey, name, regionkey FROM nation")) {
            String refusal = ("Cannot change rows of Paimon table %s.%s: it is an append table (no primary key), whose rows have no key to address them by, " +
                    "so UPDATE, MERGE and DELETE of single rows are not supported; supported are DELETE of whole partitions (a WHERE clause on the partition columns regionkey only) " +
                    "and TRUNCATE TABLE").formatted(getSession().getSchema().orElseThrow(), table.getName());
            assertThat(query("DELETE FROM " + table.getName() + " WHERE nationkey = 2")).failure().hasMessage(refusal);
            assertThat(query("DELETE FROM " + table.getName() + " WHERE regionkey = 2 AND nationkey = 2")).failure().hasMessage(refusal);
            assertUpdate("DELETE FROM " + table.getName() + " WHERE regionkey = 2", 5);
            assertQuery("SELECT nationkey, name, regionkey FROM " + table.getName(), "SELECT nationkey, name, regionkey FROM nation WHERE regionkey <> 2");
        }
    }

    // A table is a folder named after it, and a schema a folder named <schema>.db: the connector refuses a name whose
    // folder name would pass 255 bytes, the usual limit of file systems
    @Override
    protected OptionalInt maxTableNameLength()
    {
        return OptionalInt.of(255);
    }

    @Override
    protected void verifyTableNameLengthFailurePermissible(Throwable e)
    {
        // CREATE TABLE and RENAME TO check the name before they write anything
        assertThat(e).hasMessageMatching("Invalid table name 'test_(create|rename_target)_\\w+': it is longer than 255 bytes");
    }

    @Override
    protected OptionalInt maxSchemaNameLength()
    {
        return OptionalInt.of(255 - ".db".length());
    }

    @Override
    protected void verifySchemaNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching("Invalid schema name 'test_create_\\w+': it is longer than 252 bytes");
    }

    // The tests below expect Trino's generic "This connector does not support ..." wording; our refusals name the
    // table or schema instead. Same statements, our messages.

    @Test
    @Override
    public void testCreateOrReplaceTableWhenTableDoesNotExist()
    {
        String table = "test_create_or_replace_" + randomNameSuffix();
        assertQueryFails(
                "CREATE OR REPLACE TABLE " + table + " (a bigint, b double, c varchar(50))",
                "The Paimon connector does not support CREATE OR REPLACE TABLE: tpch\\." + table);
        assertThat(getQueryRunner().tableExists(getSession(), table)).isFalse();
    }

    @Test
    @Override
    public void testCreateOrReplaceTableAsSelectWhenTableDoesNotExists()
    {
        String table = "test_create_or_replace_" + randomNameSuffix();
        assertQueryFails(
                "CREATE OR REPLACE TABLE " + table + " AS SELECT nationkey, name, regionkey FROM nation",
                "The Paimon connector does not support CREATE OR REPLACE TABLE: tpch\\." + table);
        assertThat(getQueryRunner().tableExists(getSession(), table)).isFalse();
    }

    @Test
    @Override
    public void testAddColumnWithPosition()
    {
        try (TestTable table = newTrinoTable("test_add_column_", "AS SELECT 2 second, 4 fourth")) {
            assertQueryFails(
                    "ALTER TABLE " + table.getName() + " ADD COLUMN first integer FIRST",
                    "Table tpch\\." + table.getName() + ": the Paimon connector adds columns only at the end");
            assertQueryFails(
                    "ALTER TABLE " + table.getName() + " ADD COLUMN third integer AFTER second",
                    "Table tpch\\." + table.getName() + ": the Paimon connector adds columns only at the end");
            assertTableColumnNames(table.getName(), "second", "fourth");
        }
    }

    @Test
    @Override
    public void testAddNotNullColumnToEmptyTable()
    {
        try (TestTable table = newTrinoTable("test_add_nn_to_empty", "(a_varchar varchar)")) {
            // Paimon's own message
            assertQueryFails(
                    "ALTER TABLE " + table.getName() + " ADD COLUMN b_varchar varchar NOT NULL",
                    "Column b_varchar cannot specify NOT NULL in the tpch\\." + table.getName() + " table\\.");
            assertTableColumnNames(table.getName(), "a_varchar");
        }
    }

    @Test
    @Override
    public void testDropSchemaCascade()
    {
        String schemaName = "test_drop_schema_cascade_" + randomNameSuffix();
        assertUpdate("CREATE SCHEMA " + schemaName);
        assertQueryFails(
                "DROP SCHEMA " + schemaName + " CASCADE",
                "DROP SCHEMA CASCADE is not supported by the Paimon connector; drop the tables of '" + schemaName + "' first");
        assertUpdate("DROP SCHEMA " + schemaName);
    }

    // Row-level changes. Paimon changes rows by primary key, so the tables the suite builds for UPDATE, DELETE and
    // MERGE are created with one: the key Trino's test names, unless the test updates that column (a key column
    // cannot change: the row would move to another key), where a column the test's rows hold unique and leave
    // unchanged is the key instead. Tests that create their tables without the hooks are overridden below with the
    // same statements on a keyed table; tests that update every column are overridden to show the refusal and the
    // same statement without the key column.

    // by the table's name prefix
    private static final Map<String, String> KEYS_FOR_UPDATED_KEY_COLUMNS = ImmutableMap.of(
            // testUpdateNotNullColumn sets the NOT NULL column to NULL, which the engine refuses before any key check
            "update_not_null", "nullable_col",
            // testRowLevelUpdate changes nationkey; name is unique in nation
            "test_update", "name",
            // testMergeFruits changes customer; its purchases are unique
            "merge_various_target_", "purchase",
            // testMergeFalseJoinCondition has an UPDATE SET customer case (matching no row); addresses are unique
            "merge_join_false_", "address");

    @Override
    protected TestTable createTestTableForWrites(String namePrefix, String tableDefinition, String primaryKey)
    {
        return newTrinoTable(namePrefix, withPrimaryKey(tableDefinition, keyFor(namePrefix, primaryKey)));
    }

    @Override
    protected TestTable createTestTableForWrites(String namePrefix, String tableDefinition, List<String> rowsToInsert, String primaryKey)
    {
        return newTrinoTable(namePrefix, withPrimaryKey(tableDefinition, keyFor(namePrefix, primaryKey)), rowsToInsert);
    }

    @Override
    protected void createTableForWrites(String createTable, String tableName, Optional<String> primaryKey, OptionalInt updateCount)
    {
        String sql = format(createTable, tableName);
        if (primaryKey.isPresent()) {
            String prefix = "CREATE TABLE " + tableName;
            assertThat(sql).startsWith(prefix);
            sql = prefix + " " + withPrimaryKey(sql.substring(prefix.length()), keyFor(tableName, primaryKey.get()));
        }
        if (updateCount.isPresent()) {
            assertUpdate(sql, updateCount.getAsInt());
        }
        else {
            assertUpdate(sql);
        }
    }

    private static String keyFor(String tableName, String suggestedKey)
    {
        return KEYS_FOR_UPDATED_KEY_COLUMNS.entrySet().stream()
                .filter(entry -> tableName.equals(entry.getKey()) || (entry.getKey().endsWith("_") && tableName.startsWith(entry.getKey())))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(suggestedKey);
    }

    // the WITH clause goes before the query of a CREATE TABLE AS, else after the column list
    private static String withPrimaryKey(String tableDefinition, String key)
    {
        String properties = Arrays.stream(key.split(","))
                .map(column -> "'" + column.trim() + "'")
                .collect(joining(", ", "WITH (primary_key = ARRAY[", "])"));
        String definition = tableDefinition.strip();
        Matcher query = Pattern.compile("(?i)(^|\\s)AS\\s").matcher(definition);
        if (query.find()) {
            return definition.substring(0, query.start()) + " " + properties + " " + definition.substring(query.start()).strip();
        }
        return definition + " " + properties;
    }

    @Language("RegExp")
    private static String keyUpdateRefusal(String tableName, String column, String key)
    {
        return "Cannot change rows of Paimon table tpch\\." + tableName + ": column '" + column + "' is part of the primary key \\[" + key + "] " +
                "or the partition keys \\[] and cannot be updated";
    }

    @Override
    protected void verifyConcurrentUpdateFailurePermissible(Exception e)
    {
        // every UPDATE of the one row writes its key; the commits after the first find the key written since
        // the snapshot they read, and fail rather than lose the first one's change
        assertThat(e).hasMessageMatching("Write to Paimon table tpch\\.test_concurrent_update\\w+ conflicts with a concurrent commit: " +
                "snapshot \\d+ \\(APPEND by [\\w-]+\\) wrote key \\[.+\\] in bucket \\d+, which this statement also wrote; run the statement again");
    }

    @Test
    @Override
    public void testDelete()
    {
        // DELETE by a non-key column, in steps, then predicates matching nothing
        try (TestTable table = createTestTableForWrites("test_delete_", "AS SELECT * FROM orders", "orderkey")) {
            for (int custkey : new int[] {100, 300, 500}) {
                assertUpdate("DELETE FROM " + table.getName() + " WHERE custkey <= " + custkey,
                        "SELECT count(*) FROM orders WHERE custkey <= " + custkey + " AND custkey > " + (custkey == 100 ? 0 : custkey - 200));
                assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM orders WHERE custkey > " + custkey);
            }
            assertUpdate("DELETE FROM " + table.getName() + " WHERE orderkey < 0", 0);
            assertUpdate("DELETE FROM " + table.getName() + " WHERE orderkey > 5 AND orderkey < 4", 0);
            assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM orders WHERE custkey > 500");
        }

        // EXPLAIN ANALYZE of CREATE TABLE AS, INSERT and a DELETE of everything, on an append table
        String tableName = "test_delete_" + randomNameSuffix();
        try {
            assertExplainAnalyze("EXPLAIN ANALYZE CREATE TABLE " + tableName + " AS SELECT CAST(orderstatus AS varchar(15)) orderstatus FROM orders");
            assertExplainAnalyze("EXPLAIN ANALYZE INSERT INTO " + tableName + " SELECT clerk FROM orders");
            assertQuery("SELECT * FROM " + tableName, "SELECT orderstatus FROM orders UNION ALL SELECT clerk FROM orders");
            assertExplainAnalyze("EXPLAIN ANALYZE DELETE FROM " + tableName + " WHERE TRUE");
            assertQuery("SELECT count(*) FROM " + tableName, "VALUES 0");
        }
        finally {
            assertUpdate("DROP TABLE IF EXISTS " + tableName);
        }
    }

    // A DELETE without WHERE (or whose WHERE folds to TRUE) drops every file of the table in metadata. On a primary-key
    // table the files' row counts include records that replaced or deleted others, so no count of deleted rows is
    // reported (Trino's assertUpdate needs one): these statements are checked by the rows left
    @Test
    @Override
    public void testDeleteWithComplexPredicate()
    {
        try (TestTable table = createTestTableForWrites("test_delete_complex_", "AS SELECT * FROM nation", "nationkey")) {
            assertUpdate("DELETE FROM " + table.getName() + " WHERE nationkey % 2 = 0", "SELECT count(*) FROM nation WHERE nationkey % 2 = 0");
            assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM nation WHERE nationkey % 2 <> 0");

            assertThat(getQueryRunner().execute("DELETE FROM " + table.getName()).getUpdateCount()).isEmpty();
            assertQueryReturnsEmptyResult("SELECT * FROM " + table.getName());

            assertUpdate("DELETE FROM " + table.getName() + " WHERE rand() < 0", 0);
        }
    }

    @Test
    @Override
    public void testDeleteWithSubquery()
    {
        try (TestTable table = createTestTableForWrites("test_delete_subquery", "AS SELECT * FROM nation", "nationkey")) {
            assertUpdate("DELETE FROM " + table.getName() + " WHERE regionkey IN (SELECT regionkey FROM region WHERE name LIKE 'A%')", 15);
            assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM nation WHERE regionkey IN (SELECT regionkey FROM region WHERE name NOT LIKE 'A%')");
        }
        try (TestTable table = createTestTableForWrites("test_delete_subquery", "AS SELECT * FROM orders", "orderkey")) {
            assertUpdate("DELETE FROM " + table.getName() + " WHERE orderkey = (SELECT orderkey FROM orders ORDER BY orderkey LIMIT 1)", 1);
            assertUpdate("DELETE FROM " + table.getName() + " WHERE orderkey = (SELECT orderkey FROM orders WHERE false)", 0);
            assertUpdate("DELETE FROM " + table.getName() + " WHERE EXISTS(SELECT 1 WHERE false)", 0);
            assertQuery("SELECT count(*) FROM " + table.getName(), "SELECT count(*) - 1 FROM orders");
            // folds to a DELETE without WHERE
            assertThat(getQueryRunner().execute("DELETE FROM " + table.getName() + " WHERE EXISTS(SELECT 1)").getUpdateCount()).isEmpty();
            assertQueryReturnsEmptyResult("SELECT * FROM " + table.getName());
        }
        for (String delete : List.of(
                "DELETE FROM %1$s WHERE EXISTS(SELECT regionkey FROM region WHERE regionkey = %1$s.regionkey AND name LIKE 'A%%')",
                "DELETE FROM %1$s WHERE regionkey IN (SELECT regionkey FROM region WHERE regionkey = %1$s.regionkey AND name LIKE 'A%%')")) {
            try (TestTable table = createTestTableForWrites("test_delete_correlated_exists_subquery", "AS SELECT * FROM nation", "nationkey")) {
                assertUpdate(format(delete, table.getName()), 15);
                assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM nation WHERE regionkey IN (SELECT regionkey FROM region WHERE name NOT LIKE 'A%')");
            }
        }
    }

    @Test
    @Override
    public void testDeleteWithVarcharPredicate()
    {
        try (TestTable table = createTestTableForWrites("test_delete_with_varchar_predicate_", "AS SELECT * FROM orders", "orderkey")) {
            assertUpdate("DELETE FROM " + table.getName() + " WHERE orderstatus = 'O'", "SELECT count(*) FROM orders WHERE orderstatus = 'O'");
            assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM orders WHERE orderstatus <> 'O'");
        }
    }

    @Test
    @Override
    public void testRowLevelDelete()
    {
        try (TestTable table = createTestTableForWrites("test_row_delete", "AS SELECT * FROM region", "regionkey")) {
            assertUpdate("DELETE FROM " + table.getName() + " WHERE regionkey = 2", 1);
            assertQuery("SELECT * FROM " + table.getName(), "SELECT * FROM region WHERE regionkey <> 2");
        }
    }

    // the tests below set nationkey; name is the key (unique in nation)

    @Test
    @Override
    public void testUpdate()
    {
        try (TestTable table = createTestTableForWrites("test_row_update", "AS SELECT * FROM nation", "name")) {
            assertUpdate("UPDATE " + table.getName() + " SET nationkey = 100 WHERE regionkey = 2", 5);
            assertQuery("SELECT * FROM " + table.getName(), "SELECT CASE WHEN regionkey = 2 THEN 100 ELSE nationkey END, name, regionkey, comment FROM nation");
        }
    }

    @Test
    @Override
    public void testUpdateCaseSensitivity()
    {
        try (TestTable table = createTestTableForWrites("test_row_update", "AS SELECT * FROM nation", "name")) {
            assertUpdate("UPDATE " + table.getName() + " SET NATIONKEY = 100 WHERE REGIONKEY = 2", 5);
            assertQuery("SELECT count(*) FROM " + table.getName() + " WHERE nationkey = 100", "VALUES 5");
        }
    }

    @Test
    @Override
    public void testUpdateWithNullValues()
    {
        try (TestTable table = createTestTableForWrites("test_update_nulls", "AS SELECT * FROM nation", "name")) {
            assertUpdate("UPDATE " + table.getName() + " SET nationkey = NULL WHERE regionkey = 2", 5);
            assertQuery("SELECT * FROM " + table.getName(), "SELECT CASE WHEN regionkey = 2 THEN NULL ELSE nationkey END, name, regionkey, comment FROM nation");
        }
        try (TestTable table = createTestTableForWrites("test_update_nulls", "(nullable_col integer, not_null_col integer NOT NULL, pk integer)", "pk")) {
            assertUpdate("INSERT INTO " + table.getName() + " VALUES (1, 1, 1), (2, 2, 2)", 2);
            assertUpdate("UPDATE " + table.getName() + " SET nullable_col = NULL WHERE not_null_col = 1", 1);
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (NULL, 1, 1), (2, 2, 2)");
            assertQueryFails("UPDATE " + table.getName() + " SET not_null_col = TRY(1 / 0) WHERE not_null_col = 2", "NULL value not allowed for NOT NULL column: not_null_col");
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (NULL, 1, 1), (2, 2, 2)");
        }
    }

    // The rows (1, 10), (1, 20), (2, 10) are unique only by (a, b), and the UPDATE sets b: on that key it is refused.
    // The same statement runs on a table keyed by an added id column.
    @Test
    @Override
    public void testUpdateMultipleCondition()
    {
        try (TestTable table = createTestTableForWrites("test_row_update", "AS SELECT * FROM (VALUES (1, 10), (1, 20), (2, 10)) AS t(a, b)", "a,b")) {
            assertQueryFails("UPDATE " + table.getName() + " SET b = 100 WHERE a = 1 AND b = 10", keyUpdateRefusal(table.getName(), "b", "a, b"));
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 10), (1, 20), (2, 10)");
        }
        try (TestTable table = createTestTableForWrites("test_row_update", "AS SELECT * FROM (VALUES (1, 1, 10), (2, 1, 20), (3, 2, 10)) AS t(id, a, b)", "id")) {
            assertUpdate("UPDATE " + table.getName() + " SET b = 100 WHERE a = 1 AND b = 10", 1);
            assertQuery("SELECT a, b FROM " + table.getName(), "VALUES (1, 100), (1, 20), (2, 10)");
        }
    }

    // Trino's test sets each of a, b and c in turn; with key a, the UPDATE of a is refused and leaves the rows as they were
    @Test
    @Override
    public void testUpdateWithPredicates()
    {
        try (TestTable table = createTestTableForWrites("test_update_with_predicates", "(a integer, b integer, c integer)", "a")) {
            assertUpdate("INSERT INTO " + table.getName() + " VALUES (1, 2, 3), (11, 12, 13), (21, 22, 23)", 3);
            assertQueryFails("UPDATE " + table.getName() + " SET a = a - 1 WHERE c = 3", keyUpdateRefusal(table.getName(), "a", "a"));
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 2, 3), (11, 12, 13), (21, 22, 23)");

            assertUpdate("UPDATE " + table.getName() + " SET c = c + 1 WHERE a = 11", 1);
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 2, 3), (11, 12, 14), (21, 22, 23)");

            assertUpdate("UPDATE " + table.getName() + " SET b = b * 2 WHERE b = 22", 1);
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 2, 3), (11, 12, 14), (21, 44, 23)");
        }
    }

    // Trino's test sets every column; the key column is refused, the others change
    @Test
    @Override
    public void testUpdateAllValues()
    {
        try (TestTable table = createTestTableForWrites("test_update_all_columns", "(a integer, b integer, c integer)", "a")) {
            assertUpdate("INSERT INTO " + table.getName() + " VALUES (1, 2, 3), (11, 12, 13), (21, 22, 23)", 3);
            assertQueryFails("UPDATE " + table.getName() + " SET a = a + 1, b = b - 1, c = c * 2", keyUpdateRefusal(table.getName(), "a", "a"));
            assertUpdate("UPDATE " + table.getName() + " SET b = b - 1, c = c * 2", 3);
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 1, 6), (11, 11, 26), (21, 21, 46)");
        }
    }

    // Trino's test sets both columns; int_t is the key, so its UPDATE is refused and the ROW column's are run
    @Test
    @Override
    public void testUpdateRowType()
    {
        try (TestTable table = createTestTableForWrites("test_update_with_predicates_on_row_types", "(int_t integer, row_t ROW(f1 integer, f2 integer))", "int_t")) {
            assertUpdate("INSERT INTO " + table.getName() + " VALUES (1, ROW(2, 3)), (11, ROW(12, 13)), (21, ROW(22, 23))", 3);
            assertQueryFails("UPDATE " + table.getName() + " SET int_t = int_t - 1 WHERE row_t.f2 = 3", keyUpdateRefusal(table.getName(), "int_t", "int_t"));

            assertUpdate("UPDATE " + table.getName() + " SET row_t = ROW(row_t.f1, row_t.f2 + 1) WHERE int_t = 11", 1);
            assertQuery("SELECT int_t, row_t.f1, row_t.f2 FROM " + table.getName(), "VALUES (1, 2, 3), (11, 12, 14), (21, 22, 23)");

            assertUpdate("UPDATE " + table.getName() + " SET row_t = ROW(row_t.f1 * 2, row_t.f2) WHERE row_t.f1 = 22", 1);
            assertQuery("SELECT int_t, row_t.f1, row_t.f2 FROM " + table.getName(), "VALUES (1, 2, 3), (11, 12, 14), (21, 44, 23)");
        }
    }

    // Trino's test sets every column, col1 (the key) included: refused; the same MERGE without col1 changes the rest
    @Test
    @Override
    public void testMergeCasts()
    {
        try (TestTable target = createTestTableForWrites("merge_cast_target_", "(col1 integer, col2 double, col3 integer, col4 bigint, col5 real, col6 double)", "col1");
                TestTable source = newTrinoTable("merge_cast_source_", "(col1 bigint, col2 real, col3 double, col4 integer, col5 integer, col6 real)")) {
            assertUpdate("INSERT INTO " + target.getName() + " VALUES (1, 2, 3, 4, 5, 6)", 1);
            assertUpdate("INSERT INTO " + source.getName() + " VALUES (2, 3, 4, 5, 6, 7)", 1);
            String merge = "MERGE INTO " + target.getName() + " t USING " + source.getName() + " s ON (t.col1 + 1 = s.col1) WHEN MATCHED THEN UPDATE SET ";
            assertQueryFails(merge + "col1 = s.col1, col2 = s.col2, col3 = s.col3, col4 = s.col4, col5 = s.col5, col6 = s.col6", keyUpdateRefusal(target.getName(), "col1", "col1"));
            assertUpdate(merge + "col2 = s.col2, col3 = s.col3, col4 = s.col4, col5 = s.col5, col6 = s.col6", 1);
            assertQuery("SELECT * FROM " + target.getName(), "VALUES (1, 3.0, 4, 5, 6.0, 7.0)");
        }
    }

    // Trino's test sets a, b and c; a is the key
    @Test
    @Override
    public void testMergeAllColumnsReversed()
    {
        try (TestTable table = createTestTableForWrites("merge_update_columns_reversed_", "(a, b, c) AS VALUES (1, 2, 3)", "a")) {
            String merge = "MERGE INTO " + table.getName() + " t USING (VALUES (1)) AS s(a) ON (t.a = s.a) WHEN MATCHED THEN UPDATE SET ";
            assertQueryFails(merge + "c = 100, b = 42, a = 0", keyUpdateRefusal(table.getName(), "a", "a"));
            assertUpdate(merge + "c = 100, b = 42", 1);
            assertQuery("SELECT * FROM " + table.getName(), "VALUES (1, 42, 100)");
        }
    }

    // Trino's test sets customer, purchases and address; customer is the key
    @Test
    @Override
    public void testMergeAllColumnsUpdated()
    {
        try (TestTable target = createTestTableForWrites("merge_all_columns_updated_target_", "(customer varchar, purchases integer, address varchar)", "customer");
                TestTable source = newTrinoTable("merge_all_columns_updated_source_", "(customer varchar, purchases integer, address varchar)")) {
            assertUpdate("INSERT INTO " + target.getName() + " VALUES ('Dave', 11, 'Devon'), ('Aaron', 5, 'Antioch'), ('Bill', 7, 'Buena'), ('Carol', 3, 'Cambridge')", 4);
            assertUpdate("INSERT INTO " + source.getName() + " VALUES ('Dave', 11, 'Darbyshire'), ('Aaron', 6, 'Arches'), ('Carol', 9, 'Centreville'), ('Ed', 7, 'Etherville')", 4);
            String merge = "MERGE INTO " + target.getName() + " t USING " + source.getName() + " s ON (t.customer = s.customer) WHEN MATCHED THEN UPDATE SET ";
            assertQueryFails(merge + "customer = concat(t.customer, '_updated'), purchases = s.purchases + t.purchases, address = s.address",
                    keyUpdateRefusal(target.getName(), "customer", "customer"));
            assertUpdate(merge + "purchases = s.purchases + t.purchases, address = s.address", 3);
            assertQuery("SELECT * FROM " + target.getName(), "VALUES ('Dave', 22, 'Darbyshire'), ('Aaron', 11, 'Arches'), ('Bill', 7, 'Buena'), ('Carol', 12, 'Centreville')");
        }
    }
}
