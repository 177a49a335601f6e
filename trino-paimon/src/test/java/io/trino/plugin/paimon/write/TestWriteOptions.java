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
package io.trino.plugin.paimon.write;

import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The options that shape written files refuse an invalid value in the wording of every other table option: the
 * table, the option, the value and what was expected.
 */
final class TestWriteOptions
{
    @Test
    void perLevelOptionNotLevelPairs()
    {
        assertRefused(Map.of("file.format.per.level", "0:avro,parquet"),
                "Table db.t: option 'file.format.per.level' has value '0:avro,parquet', expected comma-separated level:value pairs");
        assertRefused(Map.of("file.compression.per.level", "x:zstd"),
                "Table db.t: option 'file.compression.per.level' has value 'x:zstd', expected comma-separated level:value pairs");
    }

    @Test
    void memorySizeNotASize()
    {
        assertRefused(Map.of("write-buffer-size", "lots"),
                "Table db.t: option 'write-buffer-size' has value 'lots', expected a memory size such as '256 mb'");
        assertRefused(Map.of("target-file-size", "12 parsecs"),
                "Table db.t: option 'target-file-size' has value '12 parsecs', expected a memory size such as '256 mb'");
    }

    @Test
    void perLevelOptionsChooseTheLevelFormats()
    {
        // a value computed by hand: level 0 Avro as named, level 3 ORC with the table's codec, the rest the table's
        WriteOptions options = WriteOptions.of("db.t", Map.of("file.format", "parquet", "file.format.per.level", "0:avro, 3:orc", "file.compression.per.level", "0:snappy"), true);
        assertThat(options.dataFormat(0).format()).isEqualTo(FileWriteFormat.Format.AVRO);
        assertThat(options.dataFormat(0).compression()).isEqualTo("snappy");
        assertThat(options.dataFormat(3).format()).isEqualTo(FileWriteFormat.Format.ORC);
        assertThat(options.dataFormat(3).compression()).isEqualTo("zstd");
        assertThat(options.dataFormat(5).format()).isEqualTo(FileWriteFormat.Format.PARQUET);
        // the changelog follows level 0 unless it has formats of its own
        assertThat(options.changelogFormat().format()).isEqualTo(FileWriteFormat.Format.AVRO);
        assertThat(options.changelogFormat().compression()).isEqualTo("snappy");
        WriteOptions changelogOwn = WriteOptions.of("db.t", Map.of("file.format.per.level", "0:avro", "changelog-file.format", "orc", "changelog-file.compression", "lz4"), true);
        assertThat(changelogOwn.changelogFormat().format()).isEqualTo(FileWriteFormat.Format.ORC);
        assertThat(changelogOwn.changelogFormat().compression()).isEqualTo("lz4");
    }

    private static void assertRefused(Map<String, String> options, String message)
    {
        assertThatThrownBy(() -> WriteOptions.of("db.t", options, true))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                .hasMessage(message);
    }
}
