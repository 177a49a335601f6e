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

import io.trino.Session;

import static io.trino.plugin.paimon.PaimonSessionProperties.TWO_PASS_MERGE_READ_ENABLED;
import static io.trino.plugin.paimon.PaimonSessionProperties.TWO_PASS_MERGE_READ_MAX_GAP_ROWS;
import static io.trino.plugin.paimon.PaimonSessionProperties.TWO_PASS_MERGE_READ_WINDOW_ROWS;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.CATALOG;

/** Sessions of the read tests that read merged sections in two passes. */
final class TwoPassSessions
{
    private TwoPassSessions() {}

    /** The session with the two-pass merge read on, reading values for windows of {@code windowRows} merged rows. */
    static Session twoPass(Session session, int windowRows)
    {
        return Session.builder(session)
                .setCatalogSessionProperty(CATALOG, TWO_PASS_MERGE_READ_ENABLED, "true")
                .setCatalogSessionProperty(CATALOG, TWO_PASS_MERGE_READ_WINDOW_ROWS, String.valueOf(windowRows))
                .build();
    }

    /** The same, reading winners at most {@code maxGapRows} rows apart as one range, the rows between them dropped. */
    static Session twoPass(Session session, int windowRows, int maxGapRows)
    {
        return Session.builder(twoPass(session, windowRows))
                .setCatalogSessionProperty(CATALOG, TWO_PASS_MERGE_READ_MAX_GAP_ROWS, String.valueOf(maxGapRows))
                .build();
    }
}
