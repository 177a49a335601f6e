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

import io.trino.filesystem.Location;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestMetadataPaths
{
    private static final Location TABLE = Location.of("s3://bucket/warehouse/db.db/t");
    private static final Location EXTERNAL = Location.of("s3://external/paimon");

    @Test
    void plainNamesStayInTheirFolder()
    {
        assertThat(MetadataPaths.child(TABLE.appendPath("manifest"), "manifest-1", "manifest")).isEqualTo(Location.of("s3://bucket/warehouse/db.db/t/manifest/manifest-1"));
        for (String name : List.of("", ".", "..", "../x", "a/b", "a\\b", "/etc/hostname", "s3:x")) {
            assertThatThrownBy(() -> MetadataPaths.child(TABLE.appendPath("manifest"), name, "manifest"))
                    .isInstanceOf(TrinoException.class)
                    .hasMessage("File path escapes table location: manifest '%s' is not inside s3://bucket/warehouse/db.db/t/manifest".formatted(name));
        }
    }

    @Test
    void absolutePathsStayUnderARoot()
    {
        List<Location> roots = List.of(TABLE, EXTERNAL);
        assertThat(MetadataPaths.absolute("s3://bucket/warehouse/db.db/t/bucket-0/data-1.parquet", roots, "data file").toString())
                .isEqualTo("s3://bucket/warehouse/db.db/t/bucket-0/data-1.parquet");
        assertThat(MetadataPaths.absolute("s3://external/paimon/db/t/bucket-0/data-1.parquet", roots, "data file").toString())
                .isEqualTo("s3://external/paimon/db/t/bucket-0/data-1.parquet");
        // Paimon names local files file:/…; Trino's local file system reads them as local:///…
        assertThat(MetadataPaths.absolute("file:/warehouse/db.db/t/bucket-0/data-1.parquet", List.of(Location.of("local:///warehouse/db.db/t")), "data file").toString())
                .isEqualTo("file:/warehouse/db.db/t/bucket-0/data-1.parquet");
        for (String path : List.of(
                "s3://other-bucket/warehouse/db.db/t/bucket-0/data-1.parquet",
                "s3://bucket/warehouse/db.db/t2/bucket-0/data-1.parquet",
                "s3://bucket/warehouse/db.db/t/../t2/bucket-0/data-1.parquet",
                "s3://bucket/warehouse/db.db/t",
                "gs://bucket/warehouse/db.db/t/bucket-0/data-1.parquet",
                "file:/etc/hostname",
                "/etc/hostname")) {
            assertThatThrownBy(() -> MetadataPaths.absolute(path, roots, "data file"))
                    .isInstanceOf(TrinoException.class)
                    .hasMessage("File path escapes table location: data file '%s' is not inside s3://bucket/warehouse/db.db/t".formatted(path));
        }
    }
}
