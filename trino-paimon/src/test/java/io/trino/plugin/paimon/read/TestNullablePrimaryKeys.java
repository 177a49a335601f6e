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
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Primary keys with null fields ({@code primary-key.nullable}, the user's requirement): keys compare null-safely,
 * so (1, NULL) and (1, NULL) are one key whose records merge, and null key fields order first. Paimon 1.x cannot
 * create such tables; the key-value files here come from Paimon Java's writer given a schema rewritten by hand.
 */
final class TestNullablePrimaryKeys
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "nullable_keys";

    private final Map<String, Table> tables = new HashMap<>();

    TestNullablePrimaryKeys()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon)
            throws Exception
    {
        Table twoKeys = create(paimon, "two_keys", Schema.newBuilder()
                .column("k1", DataTypes.INT())
                .column("k2", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey("k1", "k2")
                .option("bucket", "1")
                .option("write-only", "true")
                .build());
        PaimonJavaCatalog.write(twoKeys, List.of(GenericRow.of(1, null, 10), GenericRow.of(null, text("x"), 20), GenericRow.of(1, text("a"), 30)));
        PaimonJavaCatalog.write(twoKeys, List.of(GenericRow.of(1, null, 11), GenericRow.of(null, null, 40)));
        PaimonJavaCatalog.write(twoKeys, List.of(GenericRow.ofKind(RowKind.DELETE, null, text("x"), 20)));

        // a single BIGINT key, which the merge compares on a fast path
        Table bigintKey = create(paimon, "bigint_key", Schema.newBuilder()
                .column("k", DataTypes.BIGINT())
                .column("v", DataTypes.INT())
                .primaryKey("k")
                .option("bucket", "1")
                .option("write-only", "true")
                .build());
        PaimonJavaCatalog.write(bigintKey, List.of(GenericRow.of(null, 1), GenericRow.of(5L, 2), GenericRow.of(0L, 3)));
        PaimonJavaCatalog.write(bigintKey, List.of(GenericRow.of(null, 4), GenericRow.of(-1L, 5)));

        Table partialUpdate = create(paimon, "partial_update", Schema.newBuilder()
                .column("k1", DataTypes.INT())
                .column("k2", DataTypes.INT())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.INT())
                .primaryKey("k1", "k2")
                .option("bucket", "1")
                .option("write-only", "true")
                .option("merge-engine", "partial-update")
                .build());
        PaimonJavaCatalog.write(partialUpdate, List.of(GenericRow.of(1, null, 1, null), GenericRow.of(null, null, null, 7)));
        PaimonJavaCatalog.write(partialUpdate, List.of(GenericRow.of(1, null, null, 2), GenericRow.of(null, null, 8, null)));
    }

    private Table create(PaimonJavaCatalog paimon, String name, Schema schema)
            throws Exception
    {
        Table table = paimon.createTableWithNullableKeys(DATABASE, name, schema);
        tables.put(name, table);
        return table;
    }

    @Test
    void keysWithNullsMergeAndOrderFirst()
    {
        // (1, NULL) twice merges to the newer row, the deleted (NULL, 'x') is gone; the files hold null key fields
        // first, and a merge ordering them otherwise would pair the wrong records
        assertThat(rows("SELECT * FROM two_keys")).containsExactlyInAnyOrder("(null, null, 40)", "(1, null, 11)", "(1, a, 30)");
        assertThat(rows("SELECT * FROM two_keys")).containsExactlyInAnyOrderElementsOf(paimonRows("two_keys"));
        assertThat(rows("SELECT * FROM bigint_key")).containsExactlyInAnyOrder("(null, 4)", "(-1, 5)", "(0, 3)", "(5, 2)");
        assertThat(rows("SELECT * FROM bigint_key")).containsExactlyInAnyOrderElementsOf(paimonRows("bigint_key"));
        assertThat(rows("SELECT * FROM partial_update")).containsExactlyInAnyOrder("(null, null, 8, 7)", "(1, null, 1, 2)");
        assertThat(rows("SELECT * FROM partial_update")).containsExactlyInAnyOrderElementsOf(paimonRows("partial_update"));
    }

    @Test
    void keyColumnsAreNullable()
    {
        assertThat(computeActual("SELECT count(*) FROM two_keys WHERE k2 IS NULL").getOnlyValue()).isEqualTo(2L);
        assertThat(computeActual("SELECT is_nullable FROM information_schema.columns WHERE table_name = 'two_keys' AND column_name = 'k1'").getOnlyValue()).isEqualTo("YES");
    }

    private List<String> rows(String query)
    {
        return RowText.paimonText(computeActual(query));
    }

    private List<String> paimonRows(String table)
    {
        return RowText.paimonText(tables.get(table));
    }

    private static BinaryString text(String value)
    {
        return BinaryString.fromString(value);
    }
}
