package io.trino.plugin.paimon;

import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.trino.testing.sql.TestTable;
import org.intellij.lang.annotations.Language;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.testing.TestingNames.randomNameSuffix;
import static org.assertj.core.api.Assertions.assertThat;
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
    private static final String SCHEMA = "tpch";

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
            // row-level writes are not there yet (SUPPORTS_TRUNCATE and SUPPORTS_ROW_LEVEL_* follow these)
            case SUPPORTS_DELETE,
                    SUPPORTS_UPDATE,
                    SUPPORTS_MERGE -> false;
            // no applyLimit, applyTopN, applyAggregation or applyProjection
            case SUPPORTS_LIMIT_PUSHDOWN,
                    SUPPORTS_TOPN_PUSHDOWN,
                    SUPPORTS_AGGREGATION_PUSHDOWN,
                    SUPPORTS_DEREFERENCE_PUSHDOWN -> false;
            case SUPPORTS_RENAME_SCHEMA,
                    SUPPORTS_DROP_SCHEMA_CASCADE -> false;
            case SUPPORTS_RENAME_TABLE -> false;
            // ADD COLUMN appends a nullable top-level column; nothing else alters columns yet
            case SUPPORTS_ADD_COLUMN_WITH_POSITION,
                    SUPPORTS_ADD_FIELD,
                    SUPPORTS_DROP_COLUMN,
                    SUPPORTS_RENAME_COLUMN,
                    SUPPORTS_SET_COLUMN_TYPE,
                    SUPPORTS_DROP_NOT_NULL_CONSTRAINT -> false;
            // a Paimon filesystem catalog holds tables only
            case SUPPORTS_CREATE_VIEW,
                    SUPPORTS_CREATE_MATERIALIZED_VIEW -> false;
            // Paimon refuses NOT NULL for an added column
            case SUPPORTS_ADD_COLUMN_NOT_NULL_CONSTRAINT -> false;
            case SUPPORTS_NATIVE_QUERY -> false;
            default -> super.hasBehavior(connectorBehavior);
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
                "Table tpch\\.nation has no snapshot \\d+; the latest snapshot is 1|" +
                        "Table tpch\\.nation has no tag '.*'|" +
                        "Table tpch\\.nation has no snapshot committed at or before .*|" +
                        "Table tpch\\.nation: a version is a snapshot id or a tag name, not a .*|" +
                        "Table tpch\\.nation: FOR TIMESTAMP AS OF takes a timestamp, not a .*");
    }

    // A table is a folder named after it, and a schema a folder named <schema>.db: the warehouse's file system
    // limits their names, 255 bytes on a local disk (the suite's warehouse)
    @Override
    protected OptionalInt maxTableNameLength()
    {
        return OptionalInt.of(255);
    }

    @Override
    protected void verifyTableNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching("Failed to write local:///warehouse/tpch\\.db/test_create_\\w+/schema/\\.schema-0\\.[-0-9a-f]+\\.tmp");
    }

    @Override
    protected OptionalInt maxSchemaNameLength()
    {
        return OptionalInt.of(255 - ".db".length());
    }

    @Override
    protected void verifySchemaNameLengthFailurePermissible(Throwable e)
    {
        assertThat(e).hasMessageMatching("Failed to create database folder local:///warehouse/test_create_\\w+\\.db");
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
}
