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
package io.trino.plugin.paimon;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assumptions.abort;

@Tag("conformance")
public class TestPaimonOrcPrimaryKeyConnectorTest
        extends BasePaimonPrimaryKeyConnectorTest
{
    public TestPaimonOrcPrimaryKeyConnectorTest()
    {
        super("orc");
    }

    // a MERGE of a large table exercises the merge's row routing, the same for every file format: the Parquet and
    // append-table classes run it, and this one's reads and writes of ORC files are checked by the other tests
    @Test
    @Override
    public void testMergeLarge()
    {
        abort("format-independent; run by TestPaimonParquetPrimaryKeyConnectorTest");
    }
}
