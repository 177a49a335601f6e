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
package io.trino.plugin.paimon.catalog.hive;

import io.trino.filesystem.Location;
import io.trino.hive.thrift.metastore.Table;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.connector.SchemaTableName;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code metastore.sync-all-properties}, the metastore entry names the table's bucket key as Paimon's Hive
 * catalog names it: the columns of its table schema's bucket keys, joined by commas.
 */
final class TestPaimonTableEntry
{
    @Test
    void syncedBucketKeyEqualsPaimons()
    {
        for (Map<String, String> options : List.of(Map.<String, String>of(), Map.of("bucket-key", "id"), Map.of("bucket-key", " "), Map.of("bucket-key", "id,"))) {
            TableSchema ours = new TableSchema(3, 0, List.of(
                    new DataField(0, "dt", DataTypeParser.parse("STRING NOT NULL")),
                    new DataField(1, "id", DataTypeParser.parse("BIGINT NOT NULL")),
                    new DataField(2, "v", DataTypeParser.parse("STRING"))),
                    2, List.of("dt"), List.of("dt", "id"), options, Optional.empty(), 0);
            org.apache.paimon.schema.TableSchema theirs = new org.apache.paimon.schema.TableSchema(0, List.of(
                    new org.apache.paimon.types.DataField(0, "dt", DataTypes.STRING().notNull()),
                    new org.apache.paimon.types.DataField(1, "id", DataTypes.BIGINT().notNull()),
                    new org.apache.paimon.types.DataField(2, "v", DataTypes.STRING())),
                    2, List.of("dt"), List.of("dt", "id"), options, "");

            Table entry = PaimonTableEntry.newEntry(new SchemaTableName("db", "t"), ours, Location.of("file:///warehouse/db.db/t"), "owner", true, true, 0);
            assertThat(entry.getParameters().get("bucket-key")).as("%s", options).isEqualTo(String.join(",", theirs.bucketKeys()));
        }
    }
}
