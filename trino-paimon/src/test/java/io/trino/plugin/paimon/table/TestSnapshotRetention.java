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

import org.apache.paimon.CoreOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.utils.TimeUtils;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.testing.assertions.TrinoExceptionAssert.assertTrinoExceptionThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention options are read as Paimon Java 1.4.2 reads them: its defaults, its duration syntax, its decoupled
 * changelog rule.
 */
final class TestSnapshotRetention
{
    @Test
    void defaultsAreTheOnesOfPaimon()
    {
        CoreOptions paimon = new CoreOptions(new Options());
        SnapshotRetention retention = SnapshotRetention.fromOptions("db.t", Map.of());
        assertThat(retention.retainMin()).isEqualTo(paimon.snapshotNumRetainMin());
        assertThat(retention.retainMax()).isEqualTo(paimon.snapshotNumRetainMax());
        assertThat(retention.timeRetained()).isEqualTo(paimon.snapshotTimeRetain());
        assertThat(retention.expireLimit()).isEqualTo(paimon.snapshotExpireLimit());
        assertThat(retention.changelogRetainMin()).isEqualTo(paimon.changelogNumRetainMin());
        assertThat(retention.changelogRetainMax()).isEqualTo(paimon.changelogNumRetainMax());
        assertThat(retention.changelogTimeRetained()).isEqualTo(paimon.changelogTimeRetain());
        assertThat(retention.changelogDecoupled()).isEqualTo(paimon.changelogLifecycleDecoupled());
        assertThat(retention.snapshotsIgnoreConsumers()).isFalse();
    }

    @Test
    void changelogRetentionIsReadAsPaimonReadsIt()
    {
        Map<String, String> options = Map.of(
                "snapshot.num-retained.min", "3",
                "snapshot.num-retained.max", "8",
                "snapshot.time-retained", "30 min",
                "changelog.num-retained.min", "4",
                "changelog.time-retained", "2 h",
                "consumer.changelog-only", "true");
        CoreOptions paimon = new CoreOptions(Options.fromMap(options));
        SnapshotRetention retention = SnapshotRetention.fromOptions("db.t", options);
        assertThat(retention.changelogRetainMin()).isEqualTo(paimon.changelogNumRetainMin());
        assertThat(retention.changelogRetainMax()).isEqualTo(paimon.changelogNumRetainMax());
        assertThat(retention.changelogTimeRetained()).isEqualTo(paimon.changelogTimeRetain());
        assertThat(retention.changelogDecoupled()).isEqualTo(paimon.changelogLifecycleDecoupled()).isTrue();
        assertThat(retention.snapshotsIgnoreConsumers()).isEqualTo(paimon.expireConfig().isConsumerChangelogOnly()).isTrue();
        assertTrinoExceptionThrownBy(() -> SnapshotRetention.fromOptions("db.t", Map.of("changelog.num-retained.min", "0")))
                .hasErrorCode(PAIMON_INVALID_TABLE_OPTION)
                .hasMessageContaining("option 'changelog.num-retained.min' is 0");
    }

    @Test
    void durationsParseAsPaimonParsesThem()
    {
        for (String text : List.of("1 h", "1h", "30 min", "30m", "2 d", "7days", "90s", "15 seconds", "250", "250 ms", "3 hours", "1 minute")) {
            assertThat(SnapshotRetention.parseDuration("db.t", "snapshot.time-retained", text)).as(text).isEqualTo(TimeUtils.parseDuration(text));
        }
        assertTrinoExceptionThrownBy(() -> SnapshotRetention.parseDuration("db.t", "snapshot.time-retained", "1 fortnight"))
                .hasErrorCode(PAIMON_INVALID_TABLE_OPTION)
                .hasMessageContaining("option 'snapshot.time-retained' has value '1 fortnight'");
    }

    @Test
    void changelogKeptLongerThanSnapshotsIsDecoupled()
    {
        assertThat(SnapshotRetention.fromOptions("db.t", Map.of("changelog.num-retained.max", "20", "snapshot.num-retained.max", "10")).changelogDecoupled()).isTrue();
        assertThat(SnapshotRetention.fromOptions("db.t", Map.of("changelog.time-retained", "2 h")).changelogDecoupled()).isTrue();
        assertThat(SnapshotRetention.fromOptions("db.t", Map.of("changelog.time-retained", "1 h", "changelog.num-retained.min", "10")).changelogDecoupled()).isFalse();
    }

    @Test
    void retentionPaimonRejectsIsRefused()
    {
        assertTrinoExceptionThrownBy(() -> SnapshotRetention.fromOptions("db.t", Map.of("snapshot.num-retained.min", "5", "snapshot.num-retained.max", "3")))
                .hasErrorCode(PAIMON_INVALID_TABLE_OPTION)
                .hasMessageContaining("Table db.t: option 'snapshot.num-retained.max' (3) must not be less than 'snapshot.num-retained.min' (5)");
        assertTrinoExceptionThrownBy(() -> SnapshotRetention.fromOptions("db.t", Map.of("snapshot.num-retained.min", "0")))
                .hasErrorCode(PAIMON_INVALID_TABLE_OPTION);
    }
}
