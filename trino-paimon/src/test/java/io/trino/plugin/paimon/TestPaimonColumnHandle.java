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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import io.airlift.json.ObjectMapperProvider;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.type.TypeDeserializer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;

final class TestPaimonColumnHandle
{
    private static final RowType INNER = RowType.from(List.of(RowType.field("g", BIGINT), RowType.field("h", VARCHAR)));
    private static final RowType PAYLOAD = RowType.from(List.of(RowType.field("f0", BIGINT), RowType.field("nest", INNER)));

    @Test
    void dereferencesComposeIntoOnePath()
    {
        PaimonColumnHandle payload = new PaimonColumnHandle(7, "payload", PAYLOAD, false);
        PaimonColumnHandle nest = payload.dereference(List.of(1));
        PaimonColumnHandle h = nest.dereference(List.of(1));
        assertThat(h).isEqualTo(payload.dereference(List.of(1, 1)));
        assertThat(h.type()).isEqualTo(VARCHAR);
        assertThat(h.path()).containsExactly(1, 1);
        assertThat(h.qualifiedName()).isEqualTo("payload.nest.h");
        assertThat(h.isProjection()).isTrue();
        assertThat(h.baseColumn()).isEqualTo(payload);
        assertThat(payload.isProjection()).isFalse();
        assertThat(h).isNotEqualTo(nest.dereference(List.of(0)));
    }

    @Test
    void projectionTravelsAsJson()
            throws Exception
    {
        ObjectMapperProvider provider = new ObjectMapperProvider();
        provider.setJsonDeserializers(ImmutableMap.of(Type.class, new TypeDeserializer(TESTING_TYPE_MANAGER)));
        ObjectMapper mapper = provider.get();
        PaimonColumnHandle payload = new PaimonColumnHandle(7, "payload", PAYLOAD, false);
        for (PaimonColumnHandle handle : List.of(payload, payload.dereference(List.of(1, 0)))) {
            assertThat(mapper.readValue(mapper.writeValueAsString(handle), PaimonColumnHandle.class)).isEqualTo(handle);
        }
    }
}
