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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables of newer Paimon releases (2.0): options that change how rows merge or where data lives, which the connector
 * does not implement, make reads and writes fail naming the table and the option, never return rows; snapshot
 * members new in 2.0 ({@code uuid}, {@code writerVersion}, {@code operation}) are read, a commit after such a
 * snapshot gets its own uuid, and Paimon Java 1.4.2 still reads the table. The tables are written by Paimon Java
 * 1.4.2, then their schema or snapshot JSON is given what Paimon 2.0 writes.
 */
final class TestNewerPaimonTables
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "newer_paimon";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    // option and value as a Paimon 2.0 table carries them
    private static final List<List<String>> OPTIONS = List.of(
            List.of("sequence.snapshot-ordering", "true"),
            List.of("pk-clustering-override", "true"),
            List.of("deletion-vectors.merge-on-read", "true"),
            List.of("postpone.merge-on-read", "true"),
            List.of("blob-field", "v"),
            List.of("blob-descriptor-field", "v"),
            List.of("vector-field", "v"),
            List.of("pk-btree.index.columns", "v"),
            List.of("pk-bitmap.index.columns", "v"),
            List.of("pk-vector.index.columns", "v"),
            List.of("pk-full-text.index.columns", "v"),
            List.of("file.format", "lance"),
            List.of("file.format", "csv"),
            List.of("file.format.per.level", "0:json"));

    TestNewerPaimonTables()
    {
        super(DATABASE);
    }

    static Stream<List<String>> options()
    {
        return OPTIONS.stream();
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        for (int i = 0; i < OPTIONS.size(); i++) {
            String table = "option_" + i;
            Table created = paimon.createTable(DATABASE, table, schema());
            PaimonJavaCatalog.write(created, List.of(GenericRow.of(1, BinaryString.fromString("one"))));
            addOption(table, OPTIONS.get(i).get(0), OPTIONS.get(i).get(1));
        }
        Table fields = paimon.createTable(DATABASE, "snapshot_fields", schema());
        PaimonJavaCatalog.write(fields, List.of(GenericRow.of(1, BinaryString.fromString("one"))));
    }

    private static Schema schema()
    {
        return Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build();
    }

    @ParameterizedTest
    @MethodSource("options")
    void readsAndWritesFailNamingTheOption(List<String> option)
    {
        String table = "option_" + OPTIONS.indexOf(option);
        String message = ".*Paimon table %s\\.%s sets option '%s' = '%s', which the connector does not support.*".formatted(
                DATABASE, table, Pattern.quote(option.get(0)), Pattern.quote(option.get(1)));
        assertQueryFails("SELECT * FROM " + table, message);
        assertQueryFails("SELECT count(*) FROM \"%s$ro\"".formatted(table), message);
        assertQueryFails("INSERT INTO %s VALUES (2, 'two')".formatted(table), message);
        assertQueryFails("UPDATE %s SET v = 'uno' WHERE id = 1".formatted(table), message);
        assertQueryFails("ALTER TABLE %s EXECUTE optimize".formatted(table), message);
        // the table's metadata stays readable, so the option can be found
        assertQuery("SELECT count(*) FROM \"%s$snapshots\"".formatted(table), "VALUES 1");
    }

    @Test
    void tablesAreNotCreatedOrAlteredWithTheOptions()
    {
        assertQueryFails(
                "CREATE TABLE created (id integer, v varchar) WITH (primary_key = ARRAY['id'], options = ARRAY['sequence.snapshot-ordering=true'])",
                ".*Paimon table %s\\.created sets option 'sequence\\.snapshot-ordering' = 'true', which the connector does not support.*".formatted(DATABASE));
        assertQueryFails(
                "CREATE TABLE created (id integer, v varchar) WITH (file_format = 'lance')",
                ".*Paimon table %s\\.created sets option 'file\\.format' = 'lance', which the connector does not support.*".formatted(DATABASE));
        assertQueryFails("SHOW CREATE TABLE created", ".*Table '.*created' does not exist");
        assertUpdate("CREATE TABLE altered (id integer, v varchar) WITH (primary_key = ARRAY['id'])");
        assertQueryFails(
                "ALTER TABLE altered SET PROPERTIES options = ARRAY['pk-clustering-override=true']",
                ".*Paimon table %s\\.altered sets option 'pk-clustering-override' = 'true', which the connector does not support.*".formatted(DATABASE));
        assertUpdate("INSERT INTO altered VALUES (1, 'one')", 1);
        assertQuery("SELECT * FROM altered", "VALUES (1, 'one')");
    }

    @Test
    void snapshotsOfPaimon2AreReadAndCommittedAfter()
            throws IOException
    {
        Path snapshotFile = tableFolder("snapshot_fields").resolve("snapshot/snapshot-1");
        ObjectNode snapshot = (ObjectNode) MAPPER.readTree(snapshotFile.toFile());
        String uuid = UUID.randomUUID().toString();
        snapshot.put("uuid", uuid);
        snapshot.put("writerVersion", "2.0.0");
        snapshot.put("operation", "WRITE");
        Files.write(snapshotFile, MAPPER.writeValueAsBytes(snapshot));

        assertQuery("SELECT id, v FROM snapshot_fields", "VALUES (1, 'one')");
        assertQuery("SELECT snapshot_id, commit_kind FROM \"snapshot_fields$snapshots\"", "VALUES (1, 'APPEND')");
        assertUpdate("INSERT INTO snapshot_fields VALUES (2, 'two')", 1);

        JsonNode ours = MAPPER.readTree(tableFolder("snapshot_fields").resolve("snapshot/snapshot-2").toFile());
        // a snapshot of its own: a new uuid, and no writer version or operation of another commit
        assertThat(ours.has("uuid")).as("uuid of snapshot 2").isTrue();
        assertThat(ours.get("uuid").asText()).isNotEqualTo(uuid);
        assertThat(UUID.fromString(ours.get("uuid").asText()).toString()).isEqualTo(ours.get("uuid").asText());
        assertThat(ours.has("writerVersion")).isFalse();
        assertThat(ours.has("operation")).isFalse();
        assertQuery("SELECT id, v FROM snapshot_fields", "VALUES (1, 'one'), (2, 'two')");
        assertThat(PaimonJavaCatalog.readRows(paimon().getTable(DATABASE, "snapshot_fields"))).containsExactly("+I(1, one)", "+I(2, two)");
    }

    private Path tableFolder(String table)
    {
        return root().resolve("warehouse/%s.db/%s".formatted(DATABASE, table));
    }

    // what Paimon 2.0 writes into the latest schema
    private void addOption(String table, String option, String value)
    {
        Path schemaFile = tableFolder(table).resolve("schema/schema-0");
        try {
            ObjectNode schema = (ObjectNode) MAPPER.readTree(schemaFile.toFile());
            ((ObjectNode) schema.get("options")).put(option, value);
            Files.write(schemaFile, MAPPER.writeValueAsBytes(schema));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
