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

/** The options of a dynamic-bucket table, read as Paimon reads them (CoreOptions: max-buckets -1 by default, no limit). */
final class TestDynamicBucketOptions
{
    private static final String OPTION = "dynamic-bucket.max-buckets";

    @Test
    void maxBucketsIsUnlimitedOrPositive()
    {
        assertThat(DynamicBucketAssigner.maxBuckets(Map.of(), "db.t")).isEqualTo(-1);
        assertThat(DynamicBucketAssigner.maxBuckets(Map.of(OPTION, " -1 "), "db.t")).isEqualTo(-1);
        assertThat(DynamicBucketAssigner.maxBuckets(Map.of(OPTION, "8"), "db.t")).isEqualTo(8);
        // -1 is a valid value, so the refusal names it among what is expected
        for (String value : new String[] {"0", "-2", "many", "2147483648"}) {
            assertThatThrownBy(() -> DynamicBucketAssigner.maxBuckets(Map.of(OPTION, value), "db.t"))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PAIMON_INVALID_TABLE_OPTION.toErrorCode()))
                    .hasMessage("Table db.t: option 'dynamic-bucket.max-buckets' has value '%s', expected -1 (no limit) or a whole number from 1 to 2147483647", value);
        }
    }
}
