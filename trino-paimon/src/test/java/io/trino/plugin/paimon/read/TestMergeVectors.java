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

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.RowText;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deduplicate and first-row vectors of merge-semantics.md §13.1 and §13.2: Paimon Java 1.4.2 writes each
 * record (or each braced group) as its own commit, and Trino must read exactly what Paimon Java reads, which
 * must also be the doc's expectation. Re-run on 1.4.2, every expectation held; D7e keeps 1.3.1's writer defect.
 */
@Tag("slow")
final class TestMergeVectors
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "vectors";

    private final AtomicInteger tableIds = new AtomicInteger();

    TestMergeVectors()
    {
        super(DATABASE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deduplicateVectors")
    void deduplicate(QueryVector vector)
            throws Exception
    {
        assertVector(vector);
    }

    static Stream<QueryVector> deduplicateVectors()
    {
        List<QueryVector> vectors = new ArrayList<>();
        vectors.add(vector("D1", Shape.KV, Map.of(), "+I(1,a) | +U(1,b)", "(1,b)"));
        vectors.add(vector("D2", Shape.KV, Map.of(), "+I(1,a) | -D(1,a)"));
        vectors.add(vector("D2b", Shape.KV, Map.of(), "-D(1,a) | +I(1,b)", "(1,b)"));
        vectors.add(vector("D3", Shape.KV, Map.of("ignore-delete", "true"), "+I(1,a) | -D(1,a)", "(1,a)"));
        vectors.add(vector("D3b", Shape.KV, Map.of("deduplicate.ignore-delete", "true"), "+I(1,a) | -D(1,a)", "(1,a)"));
        vectors.add(vector("D4", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,3)", "(1,a,5)"));
        vectors.add(vector("D4-3", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,3) | +I(1,c,7)", "(1,c,7)"));
        vectors.add(vector("D5", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,5)", "(1,b,5)"));
        vectors.add(vector("D6", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | +I(1,b,N)", "(1,a,5)"));
        vectors.add(vector("D6b", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,b,N) | +I(1,a,5)", "(1,a,5)"));
        Map<String, String> descending = Map.of("sequence.field", "ts", "sequence.field.sort-order", "descending");
        vectors.add(vector("D7", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,3) | +I(1,c,7)", "(1,b,3)"));
        vectors.add(vector("D7b", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,N)", "(1,a,5)"));
        vectors.add(vector("D7c", Shape.KV_TS, descending, "+I(1,b,N) | +I(1,a,5)", "(1,a,5)"));
        vectors.add(vector("D7d", Shape.KV_TS, descending, "+I(1,a,5) | +I(1,b,5)", "(1,b,5)"));
        // D7e: Paimon's writer folds the one commit into a single record ascending, ignoring the descending order
        // (merge-semantics §4); 1.4.2 still writes (1,a,5), and a reader can only return what the file holds
        vectors.add(vector("D7e", Shape.KV_TS, descending, "+I(1,a,5), +I(1,b,3)", "(1,a,5)"));
        vectors.add(vector("D8", Shape.KV_S1_S2, Map.of("sequence.field", "s1,s2"), "+I(1,a,1,9) | +I(1,b,2,0) | +I(1,c,2,N) | +I(1,d,1,10)", "(1,b,2,0)"));
        vectors.add(vector("D9", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | -D(1,a,3)", "(1,a,5)"));
        vectors.add(vector("S2", Shape.KV_TS, Map.of("sequence.field", "ts"), "+I(1,a,5) | -D(1,a,6) | +I(1,b,4)"));
        vectors.add(vector("D10", Shape.KV, Map.of(), "-D(1,a)"));
        vectors.add(vector("D11", Shape.KV, Map.of(), "+I(1,a) | -U(1,a)"));
        vectors.add(vector("Q4", Shape.KV, Map.of(), "+I(1,a) | -U(1,a), +U(1,b)", "(1,b)"));
        vectors.add(vector("S3", Shape.KV, Map.of(), "+I(3,c), +I(1,a) | +I(2,b), -D(3,c)", "(1,a)", "(2,b)"));
        vectors.add(vector("S5", Shape.SKV, Map.of(), "+I(b,1), +I(a,1), +I(é,1), +I(z,1), +I(,1) | +I(a,2)", "(,1)", "(a,2)", "(b,1)", "(z,1)", "(é,1)"));
        return vectors.stream();
    }

    @Test
    void firstRow()
            throws Exception
    {
        Map<String, String> firstRow = Map.of("merge-engine", "first-row");
        // F1: level-0 files are invisible to batch reads of first-row tables until compacted
        Table f1 = writeVector(Shape.KV, firstRow, "+I(1,a) | +I(1,b)");
        assertThat(read(f1)).isEmpty();
        assertThat(PaimonJavaCatalog.readRows(f1)).isEmpty();
        PaimonJavaCatalog.compact(f1, root(), 1, _ -> true);
        assertThat(read(f1)).containsExactly("(1,a)").isEqualTo(paimonRows(f1));

        assertCompactedVector("F8", firstRow, "+I(1,a), +I(1,b)", "(1,a)");
        assertCompactedVector("F3", Map.of("merge-engine", "first-row", "first-row.ignore-delete", "true"), "+I(1,a) | -D(1,a) | +I(1,c)", "(1,a)");
        assertCompactedVector("F5", firstRow, "+U(1,a) | +I(1,b)", "(1,a)");
    }

    @Test
    void partialUpdateWithoutSequenceGroups()
            throws Exception
    {
        Map<String, String> partialUpdate = Map.of("merge-engine", "partial-update");
        // the user's example: three commits fill in the row
        assertVector("P1", Shape.BOOK, partialUpdate, "+I(1,23.0,10,N) | +I(1,N,N,'This is a book') | +I(1,25.2,N,N)", "(1,25.2,10,This is a book)");
        assertVector("Q6", Shape.KAB, partialUpdate, "+I(1,1,1) | +I(1,N,N)", "(1,1,1)");
        assertVector("P15", Shape.KAB_TS, Map.of("merge-engine", "partial-update", "sequence.field", "ts"), "+I(1,1,N,5) | +I(1,2,3,3)", "(1,1,3,5)");
        assertVector("P8c", Shape.KAB, partialUpdate, "-D(1,1,1)");
        assertVector("P9", Shape.KAB, Map.of("merge-engine", "partial-update", "ignore-delete", "true"), "+I(1,1,1) | -D(1,1,1) | +I(1,N,5)", "(1,1,5)");
        Map<String, String> removeOnDelete = Map.of("merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true");
        assertVector("P10", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,N,N)");
        assertVector("P10'", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,N,N) | +I(1,N,5)", "(1,N,5)");
        assertVector("P10c", Shape.KAB, removeOnDelete, "+I(1,1,1) | -U(1,1,1)", "(1,1,1)");

        // P8, P8b: a retraction among several records fails the read, in Paimon Java as here
        for (String commits : List.of("+I(1,1,1) | -D(1,1,1)", "+I(1,1,1) | -U(1,1,1)")) {
            Table table = writeVector(Shape.KAB, partialUpdate, commits);
            assertThatThrownBy(() -> PaimonJavaCatalog.readRows(table)).hasStackTraceContaining("By default, Partial update can not accept delete records");
            assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), "(?s)Table vectors\\.t\\d+: By default, Partial update can not accept delete records, you can choose one of the following solutions:.*\\(primary key \\(1\\)\\)");
        }
    }

    @Test
    void partialUpdateRemoveRecordOnDeleteRestartsFromTheDeleteRecord()
            throws Exception
    {
        Map<String, String> removeOnDelete = Map.of("merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true");
        // Paimon 1.4.2 restarts the row from every value of the -D (the doc's 1.3 reading kept only NOT NULL ones)
        assertVector("P10x", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,9,9) | +I(1,N,5)", "(1,9,5)");
        // only the newest record decides whether the row is removed: a -U after the -D leaves the restarted row
        assertVector("P10y", Shape.KAB, removeOnDelete, "+I(1,1,1) | -D(1,N,N) | -U(1,1,1)", "(1,N,N)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("partialUpdateGroupVectors")
    void partialUpdateWithSequenceGroups(QueryVector vector)
            throws Exception
    {
        assertVector(vector);
    }

    static Stream<QueryVector> partialUpdateGroupVectors()
    {
        List<QueryVector> vectors = new ArrayList<>();
        // the user's example: groups g_1 -> (a, b) and g_2 -> (c, d)
        List<String> p2 = ints("k", "a", "b", "g_1", "c", "d", "g_2");
        Map<String, String> p2Groups = partialUpdate("fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d");
        vectors.add(vector("P2", p2, p2Groups, "+I(1,1,1,1,1,1,1) | +I(1,2,2,2,2,2,N)", "(1,2,2,2,1,1,1)"));
        vectors.add(vector("P2'", p2, p2Groups, "+I(1,1,1,1,1,1,1) | +I(1,2,2,2,2,2,N) | +I(1,3,3,1,3,3,3)", "(1,2,2,2,3,3,3)"));
        // two sequence fields in one group, compared as a tuple
        List<String> p3 = ints("k", "a", "b", "g_1", "c", "d", "g_2", "g_3");
        Map<String, String> p3Groups = partialUpdate("fields.g_1.sequence-group", "a,b", "fields.g_2,g_3.sequence-group", "c,d");
        vectors.add(vector("P3", p3, p3Groups, "+I(1,1,1,1,1,1,1,1) | +I(1,2,2,2,2,2,1,N)", "(1,2,2,2,1,1,1,1)"));
        vectors.add(vector("P3'", p3, p3Groups, "+I(1,1,1,1,1,1,1,1) | +I(1,2,2,2,2,2,1,N) | +I(1,3,3,1,3,3,3,1)", "(1,2,2,2,3,3,3,1)"));
        // aggregate functions inside groups
        List<String> kabcd = ints("k", "a", "b", "c", "d");
        vectors.add(vector("P4", kabcd, partialUpdate("fields.a.sequence-group", "b", "fields.b.aggregate-function", "first_value", "fields.c.sequence-group", "d", "fields.d.aggregate-function", "sum"),
                "+I(1,1,1,N,N) | +I(1,N,N,1,1) | +I(1,2,2,N,N) | +I(1,N,N,2,2)", "(1,2,1,2,3)"));
        List<String> p5 = List.of("k INT", "a INT", "b INT", "g_1 INT", "c STRING", "g_2 INT", "g_3 INT");
        Map<String, String> p5Groups = partialUpdate("fields.a.aggregate-function", "sum", "fields.g_1,g_3.sequence-group", "a", "fields.g_2.sequence-group", "c");
        vectors.add(vector("P5", p5, p5Groups, "+I(1,1,1,1,'1',1,1) | +I(1,2,2,2,'2',N,2)", "(1,3,2,2,1,1,2)"));
        vectors.add(vector("P5'", p5, p5Groups, "+I(1,1,1,1,'1',1,1) | +I(1,2,2,2,'2',N,2) | +I(1,3,3,2,'3',3,1)", "(1,6,3,2,3,3,2)"));
        // the user's example with d sum and default last_non_null_value: 1,2,2,2,14 (an older group sequence still adds to the sum)
        Map<String, String> p6Groups = partialUpdate("fields.a.sequence-group", "b", "fields.c.sequence-group", "d", "fields.default-aggregate-function", "last_non_null_value", "fields.d.aggregate-function", "sum");
        String p6 = "+I(1,1,1,N,N) | +I(1,N,N,1,1) | +I(1,2,2,N,N) | +I(1,N,N,2,2)";
        vectors.add(vector("P6", kabcd, p6Groups, p6, "(1,2,2,2,3)"));
        vectors.add(vector("P6'", kabcd, p6Groups, p6 + " | +I(1,N,N,2,4)", "(1,2,2,2,7)"));
        vectors.add(vector("P6''", kabcd, p6Groups, p6 + " | +I(1,N,N,2,4) | +I(1,N,N,1,7)", "(1,2,2,2,14)"));
        // a null group sequence leaves the group alone; an equal one updates, even to null
        Map<String, String> gOrdersA = partialUpdate("fields.g.sequence-group", "a");
        vectors.add(vector("P14a", ints("k", "a", "g", "b"), gOrdersA, "+I(1,5,N,1)", "(1,5,N,1)"));
        vectors.add(vector("P14b", ints("k", "a", "g", "b"), gOrdersA, "+I(1,5,N,1) | +I(1,N,N,2)", "(1,N,N,2)"));
        vectors.add(vector("P17", ints("k", "a", "g"), gOrdersA, "+I(1,1,5) | +I(1,2,5) | +I(1,N,5)", "(1,N,5)"));
        vectors.add(vector("P18", ints("k", "g", "a"), gOrdersA, "+I(1,5,1) | +I(1,3,2) | +I(1,6,N)", "(1,6,N)"));
        vectors.add(vector("P19", ints("k", "a", "g", "x"), gOrdersA, "+I(1,1,5,1) | +I(1,2,3,N) | +I(1,3,1,7)", "(1,1,5,7)"));
        vectors.add(vector("S4", ints("k", "a", "g", "ts"), partialUpdate("sequence.field", "ts", "fields.g.sequence-group", "a"), "+I(1,1,1,5) | +I(1,2,2,3)", "(1,2,2,5)"));
        vectors.add(vector("P7g", ints("k", "a", "g"), partialUpdate("fields.g.sequence-group", "k,a"), "+I(1,1,1) | +I(1,2,2)", "(1,2,2)"));
        return vectors.stream();
    }

    @Test
    void partialUpdateReadsTheGroupSequenceOfProjectedColumns()
            throws Exception
    {
        // the user's example: groups g_1 -> (a, b) and g_2 -> (c, d)
        List<String> p2 = ints("k", "a", "b", "g_1", "c", "d", "g_2");
        Map<String, String> p2Groups = partialUpdate("fields.g_1.sequence-group", "a,b", "fields.g_2.sequence-group", "c,d");
        // only some columns asked for: the group's sequence field is still read
        Table projected = writeVector(p2, p2Groups, "+I(1,1,1,1,1,1,1) | +I(1,2,2,2,2,2,N) | +I(1,3,3,1,3,3,3)");
        assertThat(computeActual("SELECT a, d FROM \"%s\"".formatted(projected.name())).getMaterializedRows().getFirst().getFields()).containsExactly(2, 3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("partialUpdateRetractVectors")
    void partialUpdateRetractsSequenceGroups(QueryVector vector)
            throws Exception
    {
        assertVector(vector);
    }

    static Stream<QueryVector> partialUpdateRetractVectors()
    {
        List<QueryVector> vectors = new ArrayList<>();
        List<String> columns = ints("k", "a", "b", "g1", "c", "g2");
        Map<String, String> groups = partialUpdate("fields.g1.sequence-group", "a,b", "fields.g2.sequence-group", "c");
        vectors.add(vector("P12a", columns, groups, "+I(1,1,1,1,1,1) | -D(1,9,9,2,N,N)", "(1,N,N,2,1,1)"));
        vectors.add(vector("P12b", columns, groups, "+I(1,1,1,1,1,1) | -D(1,9,9,2,N,N) | -D(1,9,9,N,9,1)", "(1,N,N,2,N,1)"));
        vectors.add(vector("P12c", columns, groups, "+I(1,1,1,5,1,1) | -D(1,9,9,2,N,N)", "(1,1,1,5,1,1)"));
        vectors.add(vector("P12d", columns, groups, "+I(1,1,1,1,1,1) | -D(1,9,9,2,9,2)", "(1,N,N,2,N,2)"));
        vectors.add(vector("P12e", columns, groups, "-D(1,1,1,1,N,N) | -D(1,9,9,2,N,N)"));
        Map<String, String> removeOnG1 = new HashMap<>(groups);
        removeOnG1.put("partial-update.remove-record-on-sequence-group", "g1");
        vectors.add(vector("P13a", columns, removeOnG1, "+I(1,1,1,1,1,1) | -D(1,N,N,N,9,2)", "(1,1,1,1,N,2)"));
        vectors.add(vector("P13b", columns, removeOnG1, "+I(1,1,1,1,1,1) | -D(1,N,N,N,9,2) | -D(1,9,9,3,N,N)"));
        // 1.4.2 restarts the row from all values of the removing -D, so a, b and g1 keep 9, 9, 3 (1.3: N, N, N)
        vectors.add(vector("P13c", columns, removeOnG1, "+I(1,1,1,1,1,1) | -D(1,N,N,N,9,2) | -D(1,9,9,3,N,N) | +I(1,N,N,N,7,3)", "(1,9,9,3,7,3)"));
        // an older record is folded in before the stored values: listagg puts it first, first_value takes it,
        // last_non_null_value keeps the newer value
        vectors.add(vector("P20", List.of("k INT", "s STRING", "f INT", "l INT", "g INT"),
                partialUpdate("fields.g.sequence-group", "s,f,l", "fields.s.aggregate-function", "listagg", "fields.f.aggregate-function", "first_value", "fields.l.aggregate-function", "last_non_null_value"),
                "+I(1,a,1,1,5) | +I(1,b,2,2,3) | +I(1,c,3,N,7)", "(1,b,a,c,2,1,7)"));
        // an aggregated group member retracts whatever the group sequence
        vectors.add(vector("P12s", ints("k", "a", "g", "s"), partialUpdate("fields.g.sequence-group", "a,s", "fields.s.aggregate-function", "sum"),
                "+I(1,1,5,10) | -U(1,1,3,4) | +I(1,2,6,1)", "(1,2,6,7)"));
        return vectors.stream();
    }

    @Test
    void partialUpdateOptionsAreValidatedWhenTheTableIsRead()
            throws Exception
    {
        // Paimon refuses these itself, so the schema naming them is written by hand
        assertInvalidPartialUpdate("P7a", ints("k", "a", "s", "g1", "g2"), Map.of("fields.g1.sequence-group", "a,s", "fields.g2.sequence-group", "s"),
                ".*Field s is defined repeatedly by multiple groups: \\[\\[g[12]\\], \\[g[12]\\]\\]\\.");
        assertInvalidPartialUpdate("P7c", ints("k", "a", "b"), Map.of("fields.b.aggregate-function", "sum"), ".*Must use sequence group for aggregation functions but not found for field b\\.");
        assertInvalidPartialUpdate("P7d", ints("k", "a", "b"), Map.of("fields.default-aggregate-function", "sum"), ".*Must use sequence group for aggregation functions but not found for field a\\.");
        assertInvalidPartialUpdate("P7e", ints("k", "a", "g"), Map.of("fields.g.sequence-group", "zz"), ".*Field zz can not be found in table schema\\.");
        assertInvalidPartialUpdate("P7f", ints("k", "a", "g"), Map.of("fields.zz.sequence-group", "a"), ".*Field zz can not be found in table schema\\.");
        assertInvalidPartialUpdate("P11", ints("k", "a", "b"), Map.of("ignore-delete", "true", "partial-update.remove-record-on-delete", "true"),
                ".*ignore-delete and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time\\.");
        assertInvalidPartialUpdate("P11b", ints("k", "a", "g"), Map.of("fields.g.sequence-group", "a", "partial-update.remove-record-on-delete", "true"),
                ".*sequence-group and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time\\.");
        assertInvalidPartialUpdate("P11c", ints("k", "a", "g"), Map.of("fields.g.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "a"),
                ".*field 'a' defined in 'partial-update.remove-record-on-sequence-group' option must be part of sequence groups");
        assertInvalidPartialUpdate("P11d", ints("k", "a", "g"), Map.of("fields.g.sequence-group", "a", "partial-update.remove-record-on-sequence-group", "g", "ignore-delete", "true"),
                ".*ignore-delete and partial-update.remove-record-on-sequence-group have conflicting behavior so should not be enabled at the same time\\.");
        // P7b: Paimon 1.4.2 accepts a function on a group's sequence field and ignores it; the project's rule refuses it
        Table p7b = writeVector(ints("k", "a", "e"), partialUpdate("fields.e.sequence-group", "a", "fields.e.aggregate-function", "sum"), "+I(1,1,1)");
        assertQueryFails("SELECT * FROM \"%s\"".formatted(p7b.name()), "Table vectors\\.%s: Should not defined aggregation function on sequence group: \\[e\\]".formatted(p7b.name()));
    }

    // writes a valid table, then puts the options into its schema by hand
    private void assertInvalidPartialUpdate(String name, List<String> columns, Map<String, String> options, String message)
            throws Exception
    {
        String ones = "1,".repeat(columns.size() - 1) + "1";
        Table table = writeVector(columns, partialUpdate(), "+I(%s) | +I(%s)".formatted(ones, ones));
        // the table reads before the options are added, so the failure below is theirs
        assertThat(read(table)).as(name).containsExactly("(%s)".formatted(ones));
        addOptionsByHand(table, options);
        assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), message);
    }

    // options Paimon would refuse, written into the table's schema file as a newer or another writer could
    private void addOptionsByHand(Table table, Map<String, String> options)
            throws Exception
    {
        Path schemaFile = paimon().warehouse().resolve(DATABASE + ".db").resolve(table.name()).resolve("schema/schema-0");
        StringBuilder added = new StringBuilder();
        options.forEach((key, value) -> added.append("\n    \"%s\" : \"%s\",".formatted(key, value)));
        Files.writeString(schemaFile, Files.readString(schemaFile).replace("\"options\" : {", "\"options\" : {" + added));
    }

    private static Map<String, String> partialUpdate(String... options)
    {
        Map<String, String> map = new HashMap<>();
        map.put("merge-engine", "partial-update");
        for (int i = 0; i < options.length; i += 2) {
            map.put(options[i], options[i + 1]);
        }
        return map;
    }

    private static List<String> ints(String... names)
    {
        return Arrays.stream(names).map(name -> name + " INT").toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("aggregationVectors")
    void aggregation(QueryVector vector)
            throws Exception
    {
        assertVector(vector);
    }

    static Stream<QueryVector> aggregationVectors()
    {
        List<QueryVector> vectors = new ArrayList<>();
        // the user's example: price max, sales sum
        vectors.add(aggregationVector("A1", List.of("k INT", "price DOUBLE", "sales BIGINT"), Map.of("fields.price.aggregate-function", "max", "fields.sales.aggregate-function", "sum"),
                "+I(1,23.0,15) | +I(1,30.2,20)", "(1,30.2,35)"));
        List<String> sumTable = List.of("k INT", "s INT");
        Map<String, String> sum = Map.of("fields.s.aggregate-function", "sum");
        vectors.add(aggregationVector("A2", sumTable, sum, "+I(1,10) | -U(1,10) | +U(1,20)", "(1,20)"));
        vectors.add(aggregationVector("Q5", sumTable, sum, "+I(1,10) | -U(1,10), +U(1,20)", "(1,20)"));
        vectors.add(aggregationVector("A3", sumTable, sum, "-U(1,10)"));
        vectors.add(aggregationVector("A3b", sumTable, sum, "-U(1,10) | -D(1,5)", "(1,-15)"));
        vectors.add(aggregationVector("A3c", List.of("k INT", "s INT", "v STRING"), sum, "+I(1,10,x) | -D(1,10,x)", "(1,0,N)"));
        vectors.add(aggregationVector("A23", sumTable, sum, "+I(1,N) | -U(1,3)", "(1,-3)"));
        vectors.add(aggregationVector("A10b", sumTable, sum, "+I(1,2147483647) | +I(1,1)", "(1,-2147483648)"));
        Map<String, String> product = Map.of("fields.p.aggregate-function", "product");
        vectors.add(aggregationVector("A5b", List.of("k INT", "p INT"), product, "+I(1,-7) | -U(1,2)", "(1,-3)"));
        vectors.add(aggregationVector("A6c", List.of("k INT", "p DOUBLE"), product, "+I(1,1.5) | -U(1,0.0)", "(1,Infinity)"));
        vectors.add(aggregationVector("A7", List.of("k INT", "p DECIMAL(10, 2)"), product, "+I(1,1.25) | +I(1,1.50)", "(1,1.88)"));
        vectors.add(aggregationVector("A7b", List.of("k INT", "p DECIMAL(10, 2)"), product, "+I(1,-1.25) | +I(1,1.50)", "(1,-1.88)"));
        vectors.add(aggregationVector("A8", List.of("k INT", "p DECIMAL(10, 2)"), product, "+I(1,1.00) | -U(1,8.00)", "(1,0.13)"));
        vectors.add(aggregationVector("A9", List.of("k INT", "p DECIMAL(4, 2)"), product, "+I(1,99.00) | +I(1,2.00)", "(1,N)"));
        vectors.add(aggregationVector("A11b", List.of("k INT", "p INT"), Map.of("fields.p.aggregate-function", "first_value", "fields.p.ignore-retract", "true"), "+I(1,1) | -U(1,1) | +U(1,2)", "(1,1)"));
        vectors.add(aggregationVector("A11c", List.of("k INT", "p INT", "q INT"), Map.of("fields.p.aggregate-function", "first_value", "fields.q.aggregate-function", "first_non_null_value"),
                "+I(1,N,N) | +I(1,2,2) | +I(1,3,3)", "(1,N,2)"));
        vectors.add(aggregationVector("A11d", List.of("k INT", "q INT"), Map.of("fields.q.aggregate-function", "first_not_null_value"), "+I(1,N) | +I(1,2) | +I(1,3)", "(1,2)"));
        vectors.add(aggregationVector("A24", List.of("k INT", "p INT", "s INT"), Map.of("fields.p.aggregate-function", "first_value", "fields.p.ignore-retract", "true", "fields.s.aggregate-function", "sum"),
                "-U(1,7,1) | +I(1,8,5)", "(1,8,4)"));
        Map<String, String> lastValues = Map.of("fields.p.aggregate-function", "last_non_null_value", "fields.q.aggregate-function", "last_value", "fields.r.aggregate-function", "last_non_null_value");
        vectors.add(aggregationVector("A12a", List.of("k INT", "p INT", "q INT", "r INT"), lastValues, "+I(1,1,1,1) | +I(1,N,N,N)", "(1,1,N,1)"));
        vectors.add(aggregationVector("A12b", List.of("k INT", "p INT", "q INT", "r INT"), lastValues, "+I(1,1,1,1) | +I(1,N,N,N) | -U(1,5,5,N)", "(1,N,N,1)"));
        vectors.add(aggregationVector("A12c", List.of("k INT", "p INT", "q STRING"), Map.of(), "+I(1,1,x) | +I(1,N,y)", "(1,1,y)"));
        vectors.add(aggregationVector("A12d", List.of("k INT", "p INT", "q INT"), Map.of("fields.default-aggregate-function", "sum", "fields.q.aggregate-function", "max"),
                "+I(1,1,1) | +I(1,2,5) | +I(1,N,3)", "(1,3,5)"));
        vectors.add(aggregationVector("A17", List.of("k INT", "x BOOLEAN", "y BOOLEAN"), Map.of("fields.x.aggregate-function", "bool_and", "fields.y.aggregate-function", "bool_or"),
                "+I(1,T,F) | +I(1,N,N) | +I(1,F,T)", "(1,false,true)"));
        vectors.add(aggregationVector("A18", List.of("k INT", "mn STRING", "mx STRING"), Map.of("fields.mn.aggregate-function", "min", "fields.mx.aggregate-function", "max"),
                "+I(1,b,b) | +I(1,a,c) | +I(1,N,N)", "(1,a,c)"));
        vectors.add(aggregationVector("A26", List.of("k INT", "s DOUBLE", "m DOUBLE"), Map.of("fields.s.aggregate-function", "sum", "fields.m.aggregate-function", "max"),
                "+I(1,1.0,NaN) | +I(1,NaN,5.0)", "(1,NaN,NaN)"));
        vectors.add(aggregationVector("A26b", List.of("k INT", "m DOUBLE", "n DOUBLE"), Map.of("fields.m.aggregate-function", "max", "fields.n.aggregate-function", "min"),
                "+I(1,5.0,5.0) | +I(1,NaN,NaN)", "(1,NaN,5.0)"));
        // A13 on 1.4.2: listagg skips empty strings, and distinct is honoured
        vectors.add(aggregationVector("A13", List.of("k INT", "s STRING", "s2 STRING"),
                Map.of("fields.s.aggregate-function", "listagg", "fields.s2.aggregate-function", "listagg", "fields.s2.list-agg-delimiter", ";", "fields.s2.distinct", "true"),
                "+I(1,a,a) | +I(1,N,N) | +I(1,b,a) | +I(1,'','')", "(1,a,b,a)"));
        Map<String, String> removeOnDelete = Map.of("fields.s.aggregate-function", "sum", "aggregation.remove-record-on-delete", "true");
        vectors.add(aggregationVector("A19", sumTable, removeOnDelete, "+I(1,10) | -D(1,1)"));
        // A19': 1.3.1 gave (1,3); 1.4.2 restarts the row from the -D record, so later adds aggregate onto its 1
        vectors.add(aggregationVector("A19'", sumTable, removeOnDelete, "+I(1,10) | -D(1,1) | +I(1,3)", "(1,4)"));
        vectors.add(aggregationVector("A19c", sumTable, removeOnDelete, "+I(1,10) | -U(1,4)", "(1,6)"));
        // A21: with ignore-delete the writer drops the -D
        vectors.add(aggregationVector("A21", sumTable, Map.of("fields.s.aggregate-function", "sum", "ignore-delete", "true"), "+I(1,10) | -D(1,4)", "(1,10)"));
        // only the newest record decides the removal: a -U after the -D retracts from the restarted row
        vectors.add(aggregationVector("A19e", sumTable, removeOnDelete, "+I(1,10) | -D(1,1) | -U(1,4)", "(1,-3)"));
        vectors.add(aggregationVector("A20", List.of("k INT", "f INT", "l INT", "ts INT"), Map.of("fields.f.aggregate-function", "first_value", "fields.l.aggregate-function", "last_value", "sequence.field", "ts"),
                "+I(1,1,1,5) | +I(1,2,2,3) | +I(1,3,3,4)", "(1,2,1,5)"));
        vectors.add(aggregationVector("Q3", List.of("k INT", "s INT", "ts INT"), Map.of("fields.s.aggregate-function", "sum", "sequence.field", "ts"), "+I(1,10,5) | -U(1,3,1)", "(1,7,5)"));
        // Q1: 1.3.1 gave (1,N,5); 1.4.2 restarts the row from the -D record (f=1, s=1) and first_value keeps it
        vectors.add(aggregationVector("Q1", List.of("k INT", "f INT", "s INT"), Map.of("fields.f.aggregate-function", "first_value", "fields.s.aggregate-function", "sum", "aggregation.remove-record-on-delete", "true"),
                "+I(1,1,1) | -D(1,1,1) | +I(1,2,5)", "(1,1,6)"));
        return vectors.stream();
    }

    @Test
    void aggregationFailures()
            throws Exception
    {
        List<String> sumTable = List.of("k INT", "s INT");
        Map<String, String> product = Map.of("fields.p.aggregate-function", "product");
        String cannotRetract = ".*column '%s': Aggregate function '%s' does not support retraction, If you allow this function to ignore retraction messages, you can configure 'fields.\\$\\{field_name\\}.ignore-retract'='true'\\. \\(primary key \\(1\\)\\)";
        // A20b: no function on the sequence field (Paimon refuses to create such a table, so the option is added by hand)
        Table a20b = writeVector(List.of("k INT", "s INT", "ts INT"), Map.of("merge-engine", "aggregation", "sequence.field", "ts"), "+I(1,1,1) | +I(1,2,2)");
        addOptionsByHand(a20b, Map.of("fields.ts.aggregate-function", "max"));
        assertQueryFails("SELECT * FROM \"%s\"".formatted(a20b.name()), ".*Should not define aggregation on sequence field: 'ts'\\.");

        // retractions a function cannot take fail the read, naming table and column
        assertAggregationFails(List.of("k INT", "p INT"), Map.of("fields.p.aggregate-function", "first_value"), "+I(1,1) | -U(1,1)",
                ".*column 'p': Aggregate function 'first_value' does not support retraction.*");
        assertAggregationFails(List.of("k INT", "p DECIMAL(10, 2)"), product, "+I(1,2.00) | -U(1,3.00)", ".*column 'p': decimal 2.00 / 3.00 has no finite decimal expansion \\(primary key \\(1\\)\\)");
        assertAggregationFails(List.of("k INT", "p DECIMAL(10, 2)"), product, "+I(1,2.00) | -U(1,0.00)", ".*column 'p': decimal division by zero: 2.00 / 0.00 \\(primary key \\(1\\)\\)");
        assertAggregationFails(List.of("k INT", "p INT"), product, "+I(1,6) | -U(1,0)", ".*column 'p': integer division by zero: 6 / 0 \\(primary key \\(1\\)\\)");
        // A13b, A17b, A18': functions that cannot retract, in Paimon Java as here
        assertAggregationFails(List.of("k INT", "s STRING"), Map.of("fields.s.aggregate-function", "listagg"), "+I(1,a) | -U(1,a)", cannotRetract.formatted("s", "listagg"));
        assertAggregationFails(List.of("k INT", "x BOOLEAN"), Map.of("fields.x.aggregate-function", "bool_and"), "+I(1,T) | -U(1,T)", cannotRetract.formatted("x", "bool_and"));
        assertAggregationFails(List.of("k INT", "mn STRING", "mx STRING"), Map.of("fields.mn.aggregate-function", "min", "fields.mx.aggregate-function", "max"),
                "+I(1,b,b) | +I(1,a,c) | +I(1,N,N) | -U(1,a,c)", cannotRetract.formatted("mn", "min"));
        // A25: BOOLEAN has no order for min and max; Paimon fails when it merges, so do we
        assertAggregationFails(List.of("k INT", "s BOOLEAN"), Map.of("fields.s.aggregate-function", "max"), "+I(1,F) | +I(1,T)", ".*column 's': aggregate function 'max' cannot order BOOLEAN values");
        // A19d: remove-record-on-delete and ignore-retract contradict each other
        // (Paimon refuses to write such a table, so the options are added by hand)
        Table a19d = writeVector(sumTable, Map.of("merge-engine", "aggregation", "fields.s.aggregate-function", "sum"), "+I(1,1)");
        addOptionsByHand(a19d, Map.of("aggregation.remove-record-on-delete", "true", "fields.s.ignore-retract", "true"));
        assertQueryFails("SELECT * FROM \"%s\"".formatted(a19d.name()),
                ".*Key: 'aggregation.remove-record-on-delete' , default: false \\(fallback keys: \\[\\]\\) and fields.s.ignore-retract have conflicting behavior so should not be enabled at the same time\\.");
    }

    @Test
    void productFollowsTheUsersRulesNotPaimon1()
            throws Exception
    {
        // Paimon 1.x wraps (65536 * 65536 = 0, -128 / -1 = -128); the user's rules (Paimon 2.0) make these errors
        Map<String, String> product = Map.of("fields.p.aggregate-function", "product");
        assertAggregationFails(List.of("k INT", "p INT"), product, "+I(1,65536) | +I(1,65536)", ".*column 'p': integer overflow: 65536 \\* 65536 \\(primary key \\(1\\)\\)");
        assertAggregationFails(List.of("k INT", "p TINYINT"), product, "+I(1,16) | +I(1,16)", ".*column 'p': tinyint overflow: 16 \\* 16 \\(primary key \\(1\\)\\)");
        assertAggregationFails(List.of("k INT", "p INT"), product, "+I(1,-2147483648) | -U(1,-1)", ".*column 'p': integer overflow: -2147483648 / -1 \\(primary key \\(1\\)\\)");
        assertAggregationFails(List.of("k INT", "p TINYINT"), product, "+I(1,-128) | -U(1,-1)", ".*column 'p': tinyint overflow: -128 / -1 \\(primary key \\(1\\)\\)");
    }

    @Test
    void aggregateFunctionsAreValidatedWhenTheTableIsRead()
            throws Exception
    {
        // Paimon refuses an unknown function itself, so the schema naming one is written by hand, as a newer
        // Paimon version with functions we do not know would write it
        Table median = writeVector(List.of("k INT", "s INT"), Map.of("merge-engine", "aggregation"), "+I(1,1) | +I(1,2)");
        addOptionsByHand(median, Map.of("fields.s.aggregate-function", "median"));
        assertQueryFails("SELECT * FROM \"%s\"".formatted(median.name()), ".*column 's': Could not find any factory for identifier 'median'.*");

        // as in Paimon, a function's type is checked only when a key needs merging: a key with one record is read
        Table sumOfText = writeVector(List.of("k INT", "s STRING"), Map.of("merge-engine", "aggregation"), "+I(1,a) | +I(2,b)");
        addOptionsByHand(sumOfText, Map.of("fields.s.aggregate-function", "sum"));
        assertThat(read(sumOfText)).containsExactly("(1,a)", "(2,b)");
        Table sumOfTextMerged = writeVector(List.of("k INT", "s STRING"), Map.of("merge-engine", "aggregation"), "+I(1,a) | +I(1,b)");
        addOptionsByHand(sumOfTextMerged, Map.of("fields.s.aggregate-function", "sum"));
        assertQueryFails("SELECT * FROM \"%s\"".formatted(sumOfTextMerged.name()), ".*column 's': Data type for sum column must be 'NumericType' but was 'varchar'\\.");
    }

    private void assertAggregation(String name, List<String> columns, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        Map<String, String> tableOptions = new HashMap<>(options);
        tableOptions.put("merge-engine", "aggregation");
        assertVector(name, columns, tableOptions, commits, expected);
    }

    private void assertAggregationFails(List<String> columns, Map<String, String> options, String commits, String message)
            throws Exception
    {
        Map<String, String> tableOptions = new HashMap<>(options);
        tableOptions.put("merge-engine", "aggregation");
        Table table = writeVector(columns, tableOptions, commits);
        assertQueryFails("SELECT * FROM \"%s\"".formatted(table.name()), message);
    }

    @Test
    void keysOrderAsPaimonOrdersThem()
            throws Exception
    {
        // S5: unsigned UTF-8 order, '' < a < z < é, across two runs
        Table table = writeVector(Shape.SKV, Map.of(), "+I(b,1), +I(a,1), +I(é,1), +I(z,1), +I(,1) | +I(a,2)");
        assertThat(computeActual("SELECT k FROM \"%s\" ORDER BY k".formatted(table.name())).getOnlyColumn().toList())
                .containsExactly("", "a", "b", "z", "é");
    }

    private void assertVector(QueryVector vector)
            throws Exception
    {
        assertVector(vector.id(), vector.columns(), vector.options(), vector.commits(), vector.expected().toArray(String[]::new));
    }

    private static QueryVector vector(String id, Shape shape, Map<String, String> options, String commits, String... expected)
    {
        return vector(id, shape.columns, options, commits, expected);
    }

    private static QueryVector vector(String id, List<String> columns, Map<String, String> options, String commits, String... expected)
    {
        return new QueryVector(id, columns, options, commits, List.of(expected));
    }

    private static QueryVector aggregationVector(String id, List<String> columns, Map<String, String> options, String commits, String... expected)
    {
        Map<String, String> tableOptions = new HashMap<>(options);
        tableOptions.put("merge-engine", "aggregation");
        return vector(id, columns, tableOptions, commits, expected);
    }

    /** A vector of merge-semantics §13 as the query tests write it: one commit per '|'-separated group. */
    record QueryVector(String id, List<String> columns, Map<String, String> options, String commits, List<String> expected)
    {
        @Override
        public String toString()
        {
            return id;
        }
    }

    private void assertVector(String name, Shape shape, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        assertVector(name, shape.columns, options, commits, expected);
    }

    /** Each record its own commit (a multi-run merge), then again after Paimon Java compacted the files. */
    private void assertVector(String name, List<String> columns, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        Table table = writeVector(columns, options, commits);
        List<String> paimonRows = paimonRows(table);
        assertThat(paimonRows).as("%s in Paimon Java 1.4.2", name).containsExactlyInAnyOrder(expected);
        assertThat(read(table)).as("%s through Trino", name).isEqualTo(paimonRows);
        PaimonJavaCatalog.compact(table, root(), 1, _ -> true);
        List<String> compactedRows = paimonRows(table);
        assertThat(read(table)).as("%s through Trino after a compaction", name).isEqualTo(compactedRows);
    }

    private void assertCompactedVector(String name, Map<String, String> options, String commits, String... expected)
            throws Exception
    {
        Table table = writeVector(Shape.KV, options, commits);
        PaimonJavaCatalog.compact(table, root(), 1, _ -> true);
        List<String> paimonRows = paimonRows(table);
        assertThat(paimonRows).as("%s in Paimon Java 1.4.2", name).containsExactlyInAnyOrder(expected);
        assertThat(read(table)).as("%s through Trino", name).isEqualTo(paimonRows);
    }

    // the rows through Trino, read the same with the two-pass merge read (a window of 1 row) as without it
    private List<String> read(Table table)
    {
        String query = "SELECT * FROM \"%s\"".formatted(table.name());
        List<String> rows = RowText.rows(computeActual(query));
        assertThat(RowText.rows(computeActual(TwoPassSessions.twoPass(getSession(), 1), query))).as("%s with the two-pass merge read", table.name()).isEqualTo(rows);
        return rows;
    }

    // Paimon Java's rows in the notation of the vectors
    private static List<String> paimonRows(Table table)
    {
        return PaimonJavaCatalog.readRows(table).stream()
                .map(row -> "(" + row.substring(3, row.length() - 1).replace(", ", ",").replace("null", "N") + ")")
                .sorted()
                .toList();
    }

    /** Writes each '|'-separated group of records as one commit, with write-only so that no commit compacts. */
    private Table writeVector(Shape shape, Map<String, String> options, String commits)
            throws Exception
    {
        return writeVector(shape.columns, options, commits);
    }

    /** Columns as "name TYPE"; the first is the primary key. */
    private Table writeVector(List<String> columns, Map<String, String> options, String commits)
            throws Exception
    {
        Schema.Builder schema = Schema.newBuilder();
        for (String column : columns) {
            schema.column(column.split(" ")[0], DataTypeJsonParser.parseAtomicTypeSQLString(column.substring(column.indexOf(' ') + 1)));
        }
        schema.primaryKey("k").option("bucket", "1").option("write-only", "true").options(options);
        Table table = paimon().createTable(DATABASE, "t" + tableIds.incrementAndGet(), schema.build());
        for (String commit : commits.split("\\|")) {
            List<GenericRow> rows = new ArrayList<>();
            for (String record : commit.trim().split("(?<=\\)),\\s*")) {
                rows.add(parse(columns, record.trim()));
            }
            PaimonJavaCatalog.write(table, rows);
        }
        return table;
    }

    private static GenericRow parse(List<String> columns, String record)
    {
        RowKind kind = RowKind.fromShortString(record.substring(0, 2));
        String[] fields = record.substring(3, record.length() - 1).split(",", -1);
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].equals("N")) {
                values[i] = null;
                continue;
            }
            String type = columns.get(i).substring(columns.get(i).indexOf(' ') + 1);
            values[i] = switch (type) {
                case "INT" -> Integer.parseInt(fields[i]);
                case "BIGINT" -> Long.parseLong(fields[i]);
                case "TINYINT" -> Byte.parseByte(fields[i]);
                case "DOUBLE" -> Double.parseDouble(fields[i]);
                case "BOOLEAN" -> fields[i].equals("T");
                case "STRING" -> BinaryString.fromString(fields[i].replace("'", ""));
                default -> {
                    // DECIMAL(p, s)
                    String[] precisionScale = type.substring(type.indexOf('(') + 1, type.indexOf(')')).split(",");
                    yield Decimal.fromBigDecimal(new BigDecimal(fields[i]), Integer.parseInt(precisionScale[0].trim()), Integer.parseInt(precisionScale[1].trim()));
                }
            };
        }
        return GenericRow.ofKind(kind, values);
    }

    private enum Shape
    {
        KV("k INT", "v STRING"),
        KV_TS("k INT", "v STRING", "ts INT"),
        KV_S1_S2("k INT", "v STRING", "s1 INT", "s2 INT"),
        SKV("k STRING", "v INT"),
        KAB("k INT", "a INT", "b INT"),
        KAB_TS("k INT", "a INT", "b INT", "ts INT"),
        BOOK("k INT", "price DOUBLE", "cnt INT", "s STRING");

        private final List<String> columns;

        Shape(String... columns)
        {
            this.columns = List.of(columns);
        }
    }
}
