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
package io.trino.plugin.paimon.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.format.schema.DataField;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A Paimon view as the Hive Metastore and REST catalogs keep it: its columns, a query in the default dialect of the
 * engine that created it, the same query in other engines' dialects, a comment and free-form options.
 */
public record PaimonView(List<DataField> fields, String query, Map<String, String> dialects, Optional<String> comment, Map<String, String> options)
{
    /** The dialect under which Trino stores its SQL, and the one it prefers when reading. */
    public static final String TRINO_DIALECT = "trino";

    public PaimonView
    {
        fields = ImmutableList.copyOf(requireNonNull(fields, "fields is null"));
        requireNonNull(query, "query is null");
        dialects = ImmutableMap.copyOf(requireNonNull(dialects, "dialects is null"));
        requireNonNull(comment, "comment is null");
        options = ImmutableMap.copyOf(requireNonNull(options, "options is null"));
        checkArgument(!fields.isEmpty(), "a view has columns");
    }

    /** The query Trino runs: its own dialect's when the view has one, else the view's default query. */
    public String trinoQuery()
    {
        return dialects.getOrDefault(TRINO_DIALECT, query);
    }
}
