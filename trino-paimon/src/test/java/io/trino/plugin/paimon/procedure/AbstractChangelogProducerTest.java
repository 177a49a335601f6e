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
package io.trino.plugin.paimon.procedure;

import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A query test of tables with one {@code changelog-producer}, whose changelog Trino writes and Paimon Java reads:
 * the two-bucket tables the tests compare with Paimon Java's, rows of them, and their changelog.
 */
abstract class AbstractChangelogProducerTest
        extends AbstractPaimonJavaQueryTest
{
    private final String database;
    private final String changelogProducer;

    protected AbstractChangelogProducerTest(String database, String changelogProducer)
    {
        super(database);
        this.database = requireNonNull(database, "database is null");
        this.changelogProducer = requireNonNull(changelogProducer, "changelogProducer is null");
    }

    /** A table {@code (k int not null, v string)} keyed by {@code k}, in two buckets, with the changelog producer. */
    protected Schema.Builder keyValueSchema()
    {
        return Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "2")
                .option("changelog-producer", changelogProducer);
    }

    /** A table {@code (k int not null, total bigint)} keyed by {@code k} that sums {@code total}, with the changelog producer. */
    protected Schema.Builder summedSchema()
    {
        return Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("total", DataTypes.BIGINT())
                .primaryKey("k")
                .option("bucket", "2")
                .option("merge-engine", "aggregation")
                .option("fields.total.aggregate-function", "sum")
                .option("changelog-producer", changelogProducer);
    }

    /** The changelog of the table as Paimon Java's streaming read returns it. */
    protected List<String> changelog(String table)
    {
        return PaimonJavaCatalog.readChangelog(paimon().getTable(database, table));
    }

    protected static GenericRow row(int key, String value)
    {
        return GenericRow.of(key, BinaryString.fromString(value));
    }

    protected static List<String> sorted(List<String> rows)
    {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }
}
