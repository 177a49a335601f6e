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
package io.trino.plugin.paimon.table;

import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataTypeParser;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.spi.TrinoException;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Our typed options equal what Paimon Java's {@link CoreOptions} makes of the same option maps.
 */
final class TestTableOptions
{
    private static final List<Map<String, String>> OPTION_MAPS = List.of(
            Map.of(),
            Map.of("merge-engine", "partial-update", "bucket", "4", "sequence.field", "ts,seq", "sequence.field.sort-order", "descending",
                    "partial-update.remove-record-on-delete", "true", "fields.a.sequence-group", "b,c"),
            Map.of("merge-engine", "aggregation", "fields.default-aggregate-function", "sum", "fields.price.aggregate-function", "max",
                    "fields.price.ignore-retract", "true", "aggregation.remove-record-on-delete", "true", "changelog-producer", "lookup"),
            Map.of("merge-engine", "first-row", "first-row.ignore-delete", "true", "bucket", "-2", "file.format", "ORC"),
            Map.of("deletion-vectors.enabled", "true", "partition.default-name", "nothing", "partition.legacy-name", "false",
                    "bucket-function.type", "mod", "bucket", "8", "commit.max-retries", "3", "data-file.thin-mode", "true"),
            Map.of("changelog-producer", "full-compaction", "force-lookup", "true", "deduplicate.ignore-delete", "TRUE",
                    "commit.min-retry-wait", "50ms", "commit.max-retry-wait", "2 s", "commit.timeout", "1min"));

    @Test
    void equalPaimonsCoreOptions()
    {
        for (Map<String, String> map : OPTION_MAPS) {
            TableOptions ours = TableOptions.fromSchema("db.t", schema(map));
            CoreOptions theirs = new CoreOptions(Options.fromMap(map));
            assertThat(optionValue(ours.mergeEngine())).as("%s", map).isEqualTo(theirs.mergeEngine().toString());
            assertThat(ours.bucket()).as("%s", map).isEqualTo(theirs.bucket());
            assertThat(optionValue(ours.bucketFunctionType())).isEqualTo(theirs.bucketFunctionType().toString());
            assertThat(ours.sequenceFields()).isEqualTo(theirs.sequenceField());
            assertThat(ours.sequenceFieldDescending()).isEqualTo(!theirs.sequenceFieldSortOrderIsAscending());
            assertThat(ours.fileFormat()).isEqualTo(theirs.fileFormatString().toLowerCase(Locale.ENGLISH));
            assertThat(ours.deletionVectorsEnabled()).isEqualTo(theirs.deletionVectorsEnabled());
            assertThat(optionValue(ours.changelogProducer())).isEqualTo(theirs.changelogProducer().toString());
            assertThat(ours.forceLookup()).isEqualTo(theirs.forceLookup());
            assertThat(ours.needsLookup()).as("%s", map).isEqualTo(theirs.needLookup());
            assertThat(ours.batchScanSkipsLevelZero()).as("%s", map).isEqualTo(theirs.batchScanSkipLevel0());
            assertThat(ours.ignoreDelete()).as("%s", map).isEqualTo(theirs.ignoreDelete());
            assertThat(ours.aggregationRemoveRecordOnDelete()).isEqualTo(theirs.aggregationRemoveRecordOnDelete());
            assertThat(ours.defaultAggregateFunction()).isEqualTo(Optional.ofNullable(theirs.fieldsDefaultFunc()));
            assertThat(ours.aggregateFunction("price")).isEqualTo(Optional.ofNullable(theirs.fieldAggFunc("price")));
            assertThat(ours.ignoreRetract("price")).isEqualTo(theirs.fieldAggIgnoreRetract("price"));
            assertThat(ours.partitionDefaultName()).isEqualTo(theirs.partitionDefaultName());
            assertThat(ours.partitionLegacyName()).isEqualTo(theirs.legacyPartitionName());
            assertThat(ours.dataFileThinMode()).isEqualTo(theirs.dataFileThinMode());
            assertThat(ours.commitRetry().maxRetries()).isEqualTo(theirs.commitMaxRetries());
            assertThat(ours.commitRetry().minWait().toMillis()).as("%s", map).isEqualTo(theirs.commitMinRetryWait());
            assertThat(ours.commitRetry().maxWait().toMillis()).as("%s", map).isEqualTo(theirs.commitMaxRetryWait());
            assertThat(ours.commitRetry().timeout().map(Duration::toMillis).orElse(Long.MAX_VALUE)).as("%s", map).isEqualTo(theirs.commitTimeout());
        }
    }

    @Test
    void bucketKeyDefaultsToThePrimaryKeyWithoutPartitionColumns()
    {
        assertThat(TableOptions.fromSchema("db.t", schema(Map.of())).bucketKey()).containsExactly("id");
        assertThat(TableOptions.fromSchema("db.t", schema(Map.of("bucket-key", "id"))).bucketKey()).containsExactly("id");
    }

    @Test
    void sequenceGroupsAreReadFromTheirOptions()
    {
        TableOptions options = TableOptions.fromSchema("db.t", schema(Map.of("fields.g1,g2.sequence-group", "a,b", "fields.g3.sequence-group", "c")));
        assertThat(options.sequenceGroups()).isEqualTo(Map.of(List.of("g1", "g2"), List.of("a", "b"), List.of("g3"), List.of("c")));
    }

    @Test
    void badValuesNameTableOptionAndValue()
    {
        assertInvalid(Map.of("merge-engine", "replace"), "Table db.t: option 'merge-engine' has value 'replace', expected one of deduplicate, partial-update, aggregation, first-row");
        assertInvalid(Map.of("bucket", "four"), "Table db.t: option 'bucket' has value 'four', expected an integer");
        assertInvalid(Map.of("deletion-vectors.enabled", "yes"), "Table db.t: option 'deletion-vectors.enabled' has value 'yes', expected true or false");
        assertInvalid(Map.of("partial-update.ignore-delete", "1"), "Table db.t: option 'partial-update.ignore-delete' has value '1', expected true or false");
        assertInvalid(Map.of("changelog-producer", "always"), "Table db.t: option 'changelog-producer' has value 'always', expected one of none, input, full-compaction, lookup");
    }

    @Test
    void unsupportedFlagsAreReadAsBooleanOptions()
    {
        UnsupportedOptions.check("db.t", Map.of("data-evolution.enabled", "false"));
        assertThatThrownBy(() -> UnsupportedOptions.check("db.t", Map.of("data-evolution.enabled", " TRUE")))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(NOT_SUPPORTED.toErrorCode()))
                .hasMessageStartingWith("Paimon table db.t sets option 'data-evolution.enabled' = ' TRUE', which the connector does not support");
        // neither true nor false: refused as every boolean option is, not read as false
        assertThatThrownBy(() -> UnsupportedOptions.check("db.t", Map.of("data-evolution.enabled", "yes")))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                .hasMessage("Table db.t: option 'data-evolution.enabled' has value 'yes', expected true or false");
    }

    @Test
    void pathDirectoryStaysInsideTheTable()
    {
        assertThat(TableOptions.fromSchema("db.t", schema(Map.of())).bucketPath("dt=1/", 3)).isEqualTo("dt=1/bucket-3");
        assertThat(TableOptions.fromSchema("db.t", schema(Map.of("data-file.path-directory", "data"))).bucketPath("dt=1/", 3)).isEqualTo("data/dt=1/bucket-3");
        assertThat(TableOptions.fromSchema("db.t", schema(Map.of("data-file.path-directory", "a/b/"))).bucketPath("", 0)).isEqualTo("a/b/bucket-0");
        for (String escaping : List.of("", "/", "../other", "a/../../b", "a//b", "./a", "/etc", "s3://bucket/x", "a\\..\\b")) {
            TableOptions options = TableOptions.fromSchema("db.t", schema(Map.of("data-file.path-directory", escaping)));
            assertThatThrownBy(() -> options.bucketPath("", 0))
                    .as(escaping)
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                    .hasMessage("Table db.t: option 'data-file.path-directory' has value '%s', expected a relative folder inside the table's folder".formatted(escaping));
        }
    }

    @Test
    void bucketKeyEqualsPaimonsTableSchema()
    {
        // a blank bucket-key means the trimmed primary key to Paimon, as an absent one does
        for (Map<String, String> map : List.of(Map.<String, String>of(), Map.of("bucket-key", "id"), Map.of("bucket-key", " "), Map.of("bucket-key", "id,"))) {
            org.apache.paimon.schema.TableSchema theirs = new org.apache.paimon.schema.TableSchema(0, List.of(
                    new org.apache.paimon.types.DataField(0, "dt", DataTypes.STRING().notNull()),
                    new org.apache.paimon.types.DataField(1, "id", DataTypes.BIGINT().notNull()),
                    new org.apache.paimon.types.DataField(2, "price", DataTypes.DOUBLE())),
                    2, List.of("dt"), List.of("dt", "id"), map, "");
            assertThat(TableOptions.fromSchema("db.t", schema(map)).bucketKey()).as("%s", map).isEqualTo(theirs.bucketKeys());
        }
    }

    // how Paimon spells an enum option's value
    private static String optionValue(Enum<?> value)
    {
        return value.name().toLowerCase(Locale.ENGLISH).replace('_', '-');
    }

    private static void assertInvalid(Map<String, String> options, String message)
    {
        assertThatThrownBy(() -> TableOptions.fromSchema("db.t", schema(options)))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                .hasMessage(message);
    }

    private static TableSchema schema(Map<String, String> options)
    {
        return new TableSchema(3, 0, List.of(
                new DataField(0, "dt", DataTypeParser.parse("STRING NOT NULL")),
                new DataField(1, "id", DataTypeParser.parse("BIGINT NOT NULL")),
                new DataField(2, "price", DataTypeParser.parse("DOUBLE"))),
                2, List.of("dt"), List.of("dt", "id"), options, Optional.empty(), 0);
    }
}
