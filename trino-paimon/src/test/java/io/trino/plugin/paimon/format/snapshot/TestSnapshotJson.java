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
package io.trino.plugin.paimon.format.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot JSON of Paimon 2.0 (members {@code uuid}, {@code writerVersion}, {@code operation}, and any later one):
 * read, and written again with every member it had.
 */
final class TestSnapshotJson
{
    // a snapshot as Paimon 2.0 writes it, plus a member of some later release
    private static final String PAIMON_2_SNAPSHOT = """
            {
              "version" : 3,
              "uuid" : "5b3f0f0e-8a47-4a53-9c53-2f2b0d7c61a1",
              "id" : 7,
              "schemaId" : 0,
              "baseManifestList" : "manifest-list-a-0",
              "baseManifestListSize" : 884,
              "deltaManifestList" : "manifest-list-a-1",
              "deltaManifestListSize" : 990,
              "commitUser" : "writer",
              "writerVersion" : "2.0.0",
              "commitIdentifier" : 9223372036854775807,
              "commitKind" : "APPEND",
              "timeMillis" : 1790000000000,
              "totalRecordCount" : 3,
              "deltaRecordCount" : 3,
              "nextRowId" : 0,
              "operation" : "MERGE",
              "futureMember" : {"nested" : [1, "two", null]}
            }
            """;

    @Test
    void paimon2MembersAreReadAndWrittenAgain()
            throws IOException
    {
        Snapshot snapshot = SnapshotJson.parse(PAIMON_2_SNAPSHOT.getBytes(UTF_8));
        assertThat(snapshot.id()).isEqualTo(7);
        assertThat(snapshot.uuid()).isEqualTo(Optional.of("5b3f0f0e-8a47-4a53-9c53-2f2b0d7c61a1"));
        assertThat(snapshot.commitKind()).isEqualTo(Snapshot.CommitKind.APPEND);

        ObjectMapper mapper = new ObjectMapper();
        JsonNode written = mapper.readTree(SnapshotJson.toJson(snapshot));
        assertThat(written).isEqualTo(mapper.readTree(PAIMON_2_SNAPSHOT));
        // and parsing what was written gives the same snapshot
        assertThat(SnapshotJson.parse(SnapshotJson.toJson(snapshot))).isEqualTo(snapshot);
    }

    @Test
    void snapshotsWithoutUuidStayWithout()
            throws IOException
    {
        String paimon1 = PAIMON_2_SNAPSHOT
                .replace("  \"uuid\" : \"5b3f0f0e-8a47-4a53-9c53-2f2b0d7c61a1\",\n", "")
                .replace("  \"writerVersion\" : \"2.0.0\",\n", "")
                .replace(",\n  \"operation\" : \"MERGE\",\n  \"futureMember\" : {\"nested\" : [1, \"two\", null]}", "");
        Snapshot snapshot = SnapshotJson.parse(paimon1.getBytes(UTF_8));
        assertThat(snapshot.uuid()).isEmpty();
        assertThat(snapshot.unknownMembers()).isEmpty();
        ObjectMapper mapper = new ObjectMapper();
        assertThat(mapper.readTree(SnapshotJson.toJson(snapshot))).isEqualTo(mapper.readTree(paimon1));
    }
}
