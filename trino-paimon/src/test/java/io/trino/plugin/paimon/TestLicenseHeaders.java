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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java source of the repository, in every module, starts with the Apache License 2.0 header that the
 * repository's {@code LICENSE} grants, as Trino's own plugins do.
 */
final class TestLicenseHeaders
{
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyJavaSourceCarriesTheLicenseHeader()
            throws IOException
    {
        String header = Files.readString(REPOSITORY.resolve("trino-paimon/src/test/resources/license-header.txt"));
        assertThat(Files.readString(REPOSITORY.resolve("LICENSE"))).contains("Apache License", "Version 2.0, January 2004");
        List<Path> sources;
        try (Stream<Path> files = Files.walk(REPOSITORY)) {
            sources = files
                    .filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !REPOSITORY.relativize(file).toString().contains("target/"))
                    .filter(file -> !REPOSITORY.relativize(file).startsWith(".git"))
                    .toList();
        }
        assertThat(sources).hasSizeGreaterThan(100);
        List<String> missing = sources.stream()
                .filter(file -> !startsWith(file, header))
                .map(file -> REPOSITORY.relativize(file).toString())
                .toList();
        assertThat(missing).as("Java sources without the license header").isEmpty();
    }

    private static boolean startsWith(Path file, String header)
    {
        try {
            return Files.readString(file).startsWith(header);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
