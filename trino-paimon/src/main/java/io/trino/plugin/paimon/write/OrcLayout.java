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

import java.util.Map;

import static io.trino.plugin.paimon.table.TableOptions.positiveOption;

/**
 * The size of the stripes of the ORC files written, from the table option Paimon's ORC writer reads,
 * {@code orc.stripe.size} (64 MB, Apache ORC's default): the writer buffers a stripe before it writes it out.
 */
public record OrcLayout(long stripeSize)
{
    public static final OrcLayout DEFAULT = new OrcLayout(64L << 20);

    public static final String STRIPE_SIZE = "orc.stripe.size";

    public OrcLayout
    {
        if (stripeSize <= 0) {
            throw new IllegalArgumentException("ORC stripe size must be positive: " + stripeSize);
        }
    }

    public static OrcLayout of(String tableName, Map<String, String> options)
    {
        // Paimon hands ORC options to ORC's configuration, which reads a plain number of bytes
        return new OrcLayout(positiveOption(tableName, options, STRIPE_SIZE, DEFAULT.stripeSize, Long.MAX_VALUE));
    }
}
