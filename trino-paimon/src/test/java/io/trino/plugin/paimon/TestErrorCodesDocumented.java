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

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static org.assertj.core.api.Assertions.assertThat;

/** The error codes table of the user guide lists exactly the codes of {@link PaimonErrorCode}. */
final class TestErrorCodesDocumented
{
    private static final Path SQL_SUPPORT = Path.of("../docs/sql-support.md");
    // a row of the table: "| `PAIMON_...` | meaning |"
    private static final Pattern ROW = Pattern.compile("^\\| `(PAIMON_[A-Z_]+)` \\|", Pattern.MULTILINE);

    @Test
    void everyCodeHasARowAndEveryRowACode()
            throws IOException
    {
        Matcher rows = ROW.matcher(Files.readString(SQL_SUPPORT));
        Set<String> documented = rows.results().map(row -> row.group(1)).collect(toImmutableSet());
        Set<String> codes = Arrays.stream(PaimonErrorCode.values()).map(Enum::name).collect(toImmutableSet());
        assertThat(documented).isEqualTo(codes);
    }
}
