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
package io.trino.plugin.paimon.format;

import org.junit.jupiter.api.Test;

import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

final class TestMetadataFileNames
{
    // Paimon's data file name: data-<uuid>-<n>.<format>, the UUID in its usual text form
    private static final Pattern DATA_FILE = Pattern.compile("data-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\\d+)\\.parquet");

    @Test
    void namesOfAStatementAreRecognisedAndStayPaimons()
    {
        String statement = UUID.randomUUID().toString();
        MetadataFileNames first = MetadataFileNames.ofStatement(statement);
        MetadataFileNames second = MetadataFileNames.ofStatement(statement);

        String data = first.dataFile("parquet");
        Matcher matcher = DATA_FILE.matcher(data);
        assertThat(matcher.matches()).as(data).isTrue();
        // a valid UUID whose first half is the statement's
        assertThat(UUID.fromString(matcher.group(1)).getMostSignificantBits()).isEqualTo(UUID.fromString(statement).getMostSignificantBits());

        // two writers of one statement never share a name
        String otherWriter = second.dataFile("parquet");
        assertThat(otherWriter).isNotEqualTo(data);
        assertThat(otherWriter.substring(0, 24)).isEqualTo(data.substring(0, 24));

        for (String name : new String[] {data, otherWriter, first.changelogFile("orc"), second.indexFile()}) {
            assertThat(MetadataFileNames.isOfStatement(name, statement)).as(name).isTrue();
            assertThat(MetadataFileNames.isOfStatement(name, UUID.randomUUID().toString())).as(name).isFalse();
        }
        // files of other writers: plain writers, compactions, the commit's manifests
        assertThat(MetadataFileNames.isOfStatement(new MetadataFileNames().dataFile("parquet"), statement)).isFalse();
        assertThat(MetadataFileNames.isOfStatement(first.manifest(), statement)).isFalse();
        assertThat(MetadataFileNames.isOfStatement(first.indexManifest(), statement)).isFalse();
    }
}
