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
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * ALTER TABLE on tables Paimon Java 1.4.2 wrote, each change checked by reading the table back with Paimon Java: the
 * new {@code schema-N} it loads (fields, field ids, keys, options), the old files read through field ids, and rows
 * written after the change. Changes Paimon refuses fail with Paimon's own message (taken from Paimon Java refusing
 * the same change) and write no schema file.
 */
final class TestPaimonAlterTable
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "alter";

    TestPaimonAlterTable()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
    {
        Table dropped = paimon.createTable(DATABASE, "dropped", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("a", DataTypes.STRING())
                .column("b", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(dropped, List.of(GenericRow.of(1, text("x"), 10), GenericRow.of(2, text("y"), 20)));

        Table renamed = paimon.createTable(DATABASE, "renamed", Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", "2")
                .build());
        PaimonJavaCatalog.write(renamed, List.of(GenericRow.of(text("d1"), 1, text("one")), GenericRow.of(text("d2"), 2, text("two"))));

        Table summed = paimon.createTable(DATABASE, "summed", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("total", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .build());
        PaimonJavaCatalog.write(summed, List.of(GenericRow.of(1, 5)));

        Table typed = paimon.createTable(DATABASE, "typed", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("i", DataTypes.INT())
                .column("f", DataTypes.FLOAT())
                .column("s", DataTypes.VARCHAR(5))
                .column("d", DataTypes.DECIMAL(5, 2))
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(typed, List.of(GenericRow.of(1, 7, 1.5f, text("abc"), Decimal.fromBigDecimal(new BigDecimal("1.25"), 5, 2))));

        Table moved = paimon.createTable(DATABASE, "moved", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        PaimonJavaCatalog.write(moved, List.of(GenericRow.of(1, text("kept"))));

        for (String name : List.of("props", "props_twin")) {
            Table props = paimon.createTable(DATABASE, name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .column("s", DataTypes.INT())
                    .primaryKey("id")
                    .option("bucket", "2")
                    .build());
            PaimonJavaCatalog.write(props, List.of(GenericRow.of(1, text("a"), 1)));
        }
        paimon.createTable(DATABASE, "empty_props", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
    }

    @Test
    void dropColumnThenAddItBackReadsNullForOldRows()
    {
        assertUpdate("ALTER TABLE dropped DROP COLUMN a");
        TableSchema schema = schema("dropped");
        assertThat(schema.id()).isEqualTo(1);
        assertThat(schema.fields()).extracting(DataField::name, DataField::id).containsExactly(tuple("id", 0), tuple("b", 2));
        assertThat(schema.highestFieldId()).isEqualTo(2);
        assertThat(rows("dropped")).containsExactly("+I(1, 10)", "+I(2, 20)");
        assertQuery("SELECT * FROM dropped", "VALUES (1, 10), (2, 20)");

        // the same name again is a new column: a new field id, null in the files written before
        assertUpdate("ALTER TABLE dropped ADD COLUMN a varchar");
        assertThat(schema("dropped").fields()).extracting(DataField::name, DataField::id).containsExactly(tuple("id", 0), tuple("b", 2), tuple("a", 3));
        assertThat(rows("dropped")).containsExactly("+I(1, 10, null)", "+I(2, 20, null)");

        assertUpdate("INSERT INTO dropped VALUES (1, 11, 'w'), (3, 30, 'z')", 2);
        assertThat(rows("dropped")).containsExactly("+I(1, 11, w)", "+I(2, 20, null)", "+I(3, 30, z)");
        assertQuery("SELECT * FROM dropped", "VALUES (1, 11, 'w'), (2, 20, NULL), (3, 30, 'z')");
    }

    @Test
    void dropOfKeyColumnsIsRefused()
    {
        assertRefusedAsPaimon("dropped", "ALTER TABLE dropped DROP COLUMN id", SchemaChange.dropColumn("id"));
        assertRefusedAsPaimon("renamed", "ALTER TABLE renamed DROP COLUMN dt", SchemaChange.dropColumn("dt"));
    }

    @Test
    void renameColumnKeepsValuesAndRenamesThePrimaryKey()
    {
        assertUpdate("ALTER TABLE renamed RENAME COLUMN v TO label");
        assertUpdate("ALTER TABLE renamed RENAME COLUMN id TO key");
        TableSchema schema = schema("renamed");
        assertThat(schema.fields()).extracting(DataField::name, DataField::id).containsExactly(tuple("dt", 0), tuple("key", 1), tuple("label", 2));
        assertThat(schema.primaryKeys()).containsExactly("dt", "key");
        assertThat(rows("renamed")).containsExactly("+I(d1, 1, one)", "+I(d2, 2, two)");
        assertQuery("SELECT dt, key, label FROM renamed", "VALUES ('d1', 1, 'one'), ('d2', 2, 'two')");

        // a row written after the rename replaces the old row of its key, written under the old names
        assertUpdate("INSERT INTO renamed VALUES ('d1', 1, 'uno'), ('d1', 3, 'tres')", 2);
        assertThat(rows("renamed")).containsExactly("+I(d1, 1, uno)", "+I(d1, 3, tres)", "+I(d2, 2, two)");
        assertQuery("SELECT dt, key, label FROM renamed", "VALUES ('d1', 1, 'uno'), ('d1', 3, 'tres'), ('d2', 2, 'two')");

        assertRefusedAsPaimon("renamed", "ALTER TABLE renamed RENAME COLUMN dt TO day", SchemaChange.renameColumn("dt", "day"));
    }

    @Test
    void renameColumnMovesItsFieldOptions()
    {
        assertUpdate("ALTER TABLE summed RENAME COLUMN total TO amount");
        assertThat(schema("summed").options())
                .containsEntry("fields.amount.aggregate-function", "sum")
                .doesNotContainKey("fields.total.aggregate-function");
        assertUpdate("INSERT INTO summed VALUES (1, 7)", 1);
        assertThat(rows("summed")).containsExactly("+I(1, 12)");
        assertQuery("SELECT * FROM summed", "VALUES (1, 12)");
    }

    @Test
    void widenedTypesReadOldFilesAndTakeWiderValues()
    {
        assertUpdate("ALTER TABLE typed ALTER COLUMN i SET DATA TYPE bigint");
        assertUpdate("ALTER TABLE typed ALTER COLUMN f SET DATA TYPE double");
        assertUpdate("ALTER TABLE typed ALTER COLUMN s SET DATA TYPE varchar(10)");
        assertUpdate("ALTER TABLE typed ALTER COLUMN d SET DATA TYPE decimal(10, 2)");
        assertThat(schema("typed").fields()).extracting(field -> field.type().asSQLString())
                .containsExactly("INT NOT NULL", "BIGINT", "DOUBLE", "VARCHAR(10)", "DECIMAL(10, 2)");
        assertThat(rows("typed")).containsExactly("+I(1, 7, 1.5, abc, 1.25)");
        assertThat(query("SELECT * FROM typed")).matches("VALUES (1, BIGINT '7', DOUBLE '1.5', CAST('abc' AS varchar(10)), CAST(1.25 AS decimal(10, 2)))");

        assertUpdate("INSERT INTO typed VALUES (2, 5000000000, 2.25, 'abcdefghij', 12345678.25)", 1);
        assertThat(rows("typed")).containsExactly("+I(1, 7, 1.5, abc, 1.25)", "+I(2, 5000000000, 2.25, abcdefghij, 12345678.25)");
        assertThat(query("SELECT * FROM typed")).matches("""
                VALUES
                    (1, BIGINT '7', DOUBLE '1.5', CAST('abc' AS varchar(10)), CAST(1.25 AS decimal(10, 2))),
                    (2, BIGINT '5000000000', DOUBLE '2.25', CAST('abcdefghij' AS varchar(10)), CAST(12345678.25 AS decimal(10, 2)))
                """);

        long schemaId = schema("typed").id();
        assertRefusedAsPaimon("typed", "ALTER TABLE typed ALTER COLUMN id SET DATA TYPE bigint", SchemaChange.updateColumnType("id", DataTypes.BIGINT()));
        // Paimon allows narrowing (an explicit cast that old files may not survive); the connector does not
        assertQueryFails("ALTER TABLE typed ALTER COLUMN i SET DATA TYPE integer",
                ".*cannot change column 'i' from BIGINT to INT; the Paimon connector changes a column only to a type that holds every value of the old one.*");
        assertQueryFails("ALTER TABLE typed ALTER COLUMN s SET DATA TYPE varchar(3)", ".*cannot change column 's' from VARCHAR\\(10\\) to VARCHAR\\(3\\).*");
        assertThat(schema("typed").id()).isEqualTo(schemaId);
    }

    @Test
    void renameTableMovesItsFolder()
            throws IOException
    {
        assertUpdate("ALTER TABLE moved RENAME TO moved_here");
        assertThat(tableFolder(DATABASE, "moved")).doesNotExist();
        assertThat(rows("moved_here")).containsExactly("+I(1, kept)");
        assertQuery("SELECT * FROM moved_here", "VALUES (1, 'kept')");

        // into another database, as Paimon's filesystem catalog allows
        assertUpdate("CREATE SCHEMA elsewhere");
        assertUpdate("ALTER TABLE moved_here RENAME TO elsewhere.moved_there");
        assertThat(PaimonJavaCatalog.readRows(uncachedPaimon().getTable("elsewhere", "moved_there"))).containsExactly("+I(1, kept)");
        assertThatThrownBy(() -> uncachedPaimon().getTable(DATABASE, "moved_here")).hasMessageContaining("does not exist");
        assertQueryReturnsEmptyResult("SHOW TABLES LIKE 'moved%'");
        assertUpdate("INSERT INTO elsewhere.moved_there VALUES (2, 'added')", 1);
        assertThat(PaimonJavaCatalog.readRows(uncachedPaimon().getTable("elsewhere", "moved_there"))).containsExactly("+I(1, kept)", "+I(2, added)");

        assertQueryFails("ALTER TABLE elsewhere.moved_there RENAME TO \"alter\".props", ".*Target table 'paimon.alter.props' already exists.*");
        assertThat(Files.exists(tableFolder("elsewhere", "moved_there"))).isTrue();
    }

    @Test
    void setPropertiesChangesMutableOptions()
    {
        assertUpdate("ALTER TABLE props SET PROPERTIES options = ARRAY['snapshot.num-retained.min=5', 'write-buffer-size=64 mb'], changelog_producer = 'input'");
        Map<String, String> options = schema("props").options();
        assertThat(options)
                .containsEntry("snapshot.num-retained.min", "5")
                .containsEntry("write-buffer-size", "64 mb")
                .containsEntry("changelog-producer", "input")
                .containsEntry("bucket", "2");
        assertUpdate("ALTER TABLE props SET PROPERTIES changelog_producer = DEFAULT");
        assertThat(schema("props").options()).doesNotContainKey("changelog-producer").containsEntry("snapshot.num-retained.min", "5");
        assertUpdate("INSERT INTO props VALUES (2, 'b', 2)", 1);
        assertThat(rows("props")).containsExactly("+I(1, a, 1)", "+I(2, b, 2)");

        // a table without data may change even the options Paimon fixes once data is written
        assertUpdate("ALTER TABLE empty_props SET PROPERTIES merge_engine = 'partial-update'");
        assertThat(schema("empty_props").options()).containsEntry("merge-engine", "partial-update");
    }

    @Test
    void setPropertiesRefusesWhatPaimonRefuses()
    {
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES merge_engine = 'first-row'", SchemaChange.setOption("merge-engine", "first-row"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES bucket_key = ARRAY['id']", SchemaChange.setOption("bucket-key", "id"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES primary_key = ARRAY['v']", SchemaChange.setOption("primary-key", "v"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES partitioned_by = ARRAY['v']", SchemaChange.setOption("partition", "v"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES bucket = -1", SchemaChange.setOption("bucket", "-1"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES bucket = DEFAULT", SchemaChange.removeOption("bucket"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES deletion_vectors_enabled = true", SchemaChange.setOption("deletion-vectors.enabled", "true"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES options = ARRAY['aggregation.remove-record-on-delete=true']",
                SchemaChange.setOption("aggregation.remove-record-on-delete", "true"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES sequence_field = ARRAY['nope']", SchemaChange.setOption("sequence.field", "nope"));
        assertRefusedAsPaimon("props_twin", "ALTER TABLE props_twin SET PROPERTIES merge_engine = 'first-row'", SchemaChange.setOption("merge-engine", "first-row"));

        // Paimon allows a new fixed bucket number and leaves the rescale to the user; the connector cannot rescale
        assertQueryFails("ALTER TABLE props_twin SET PROPERTIES bucket = 4", ".*Cannot change bucket from 2 to 4: the table has data.*");
        assertThat(schemaFiles("props_twin")).containsExactly("schema-0");
        assertThat(rows("props_twin")).containsExactly("+I(1, a, 1)");
    }

    @Test
    void setPropertiesRefusesUnparsableBucketAsEveryTableOptionIsRefused()
    {
        // the wording of every refused option value, as a read of the table would word it
        assertQueryFails("ALTER TABLE props_twin SET PROPERTIES options = ARRAY['bucket=two']",
                "Table alter.props_twin: option 'bucket' has value 'two', expected an integer");
        assertThat(schemaFiles("props_twin")).containsExactly("schema-0");
    }

    // Paimon Java refuses the change; the statement fails with Paimon's message and writes no schema file
    private void assertRefusedAsPaimon(String table, String statement, SchemaChange paimonChange)
    {
        List<String> schemasBefore = schemaFiles(table);
        String paimonMessage = paimonRefusal(table, paimonChange);
        assertQueryFails(statement, ".*" + Pattern.quote(paimonMessage) + ".*");
        assertThat(schemaFiles(table)).isEqualTo(schemasBefore);
    }

    private String paimonRefusal(String table, SchemaChange change)
    {
        Throwable failure = null;
        try {
            uncachedPaimon().alterTable(DATABASE, table, change);
        }
        catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).as("Paimon Java refuses %s on %s", change, table).isNotNull();
        while (failure.getCause() != null && failure.getMessage() != null && failure.getMessage().startsWith(failure.getCause().getClass().getName())) {
            failure = failure.getCause();
        }
        return failure.getMessage();
    }

    private TableSchema schema(String table)
    {
        return ((FileStoreTable) uncachedPaimon().getTable(DATABASE, table)).schema();
    }

    private List<String> rows(String table)
    {
        return PaimonJavaCatalog.readRows(uncachedPaimon().getTable(DATABASE, table));
    }

    private List<String> schemaFiles(String table)
    {
        try (var files = Files.list(tableFolder(DATABASE, table).resolve("schema"))) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("schema-")).sorted().toList();
        }
        catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private Path tableFolder(String database, String table)
    {
        return uncachedPaimon().warehouse().resolve(database + ".db").resolve(table);
    }

    private static BinaryString text(String value)
    {
        return BinaryString.fromString(value);
    }
}
