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
package io.trino.plugin.paimon.server;

import com.google.common.collect.HashMultimap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.SetMultimap;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin folder that plugin-assembly builds: what Trino's plugin loader needs and nothing the server already
 * provides (its SPI packages are loaded parent-first, so a second copy would be dead weight or a conflict).
 */
final class TestPluginFolder
{
    // packages the Trino server shares with every plugin (PluginManager.SPI_PACKAGES in Trino 476)
    private static final List<String> SERVER_PROVIDED_PACKAGES = List.of(
            "io/trino/spi/",
            "com/fasterxml/jackson/annotation/",
            "io/airlift/slice/",
            "org/openjdk/jol/",
            "io/opentelemetry/api/",
            "io/opentelemetry/context/");

    // test-scope only: the oracle must never reach the run-time folder, nor Trino's own HDFS module
    private static final List<String> FORBIDDEN_PACKAGES = List.of(
            "org/apache/paimon/",
            "io/trino/hdfs/");

    private final Path pluginFolder = Path.of(System.getProperty("paimon.plugin.dir"));

    @Test
    void holdsThePluginServiceDescriptor()
            throws IOException
    {
        List<String> services = new ArrayList<>();
        for (Path jar : jars()) {
            try (JarFile jarFile = new JarFile(jar.toFile())) {
                JarEntry entry = jarFile.getJarEntry("META-INF/services/io.trino.spi.Plugin");
                if (entry != null) {
                    try (InputStream input = jarFile.getInputStream(entry)) {
                        services.add(new String(input.readAllBytes(), UTF_8).trim());
                    }
                }
            }
        }
        assertThat(services).containsExactly("io.trino.plugin.paimon.PaimonPlugin");
    }

    @Test
    void bundlesNothingTheServerProvidesNorTestOnlyJars()
            throws IOException
    {
        Map<String, String> offending = new TreeMap<>();
        for (Path jar : jars()) {
            for (String entry : classEntries(jar)) {
                Stream.concat(SERVER_PROVIDED_PACKAGES.stream(), FORBIDDEN_PACKAGES.stream())
                        .filter(entry::startsWith)
                        .findFirst()
                        .ifPresent(prefix -> offending.putIfAbsent(jar.getFileName().toString(), entry));
            }
        }
        assertThat(offending).isEmpty();
    }

    // HDFS warehouses: Hadoop only as its shaded client (its third-party classes relocated), never its unshaded jars
    @Test
    void bundlesHadoopOnlyAsItsShadedClient()
            throws IOException
    {
        List<String> hadoopJars = new ArrayList<>();
        for (Path jar : jars()) {
            if (classEntries(jar).stream().anyMatch(entry -> entry.startsWith("org/apache/hadoop/"))) {
                hadoopJars.add(jar.getFileName().toString().replaceFirst("-[0-9][^-]*\\.jar$", ""));
            }
        }
        assertThat(hadoopJars).containsExactlyInAnyOrder("hadoop-client-api", "hadoop-client-runtime");
    }

    @Test
    void bundlesGuavaBecauseOnlySpiPackagesComeFromTheServer()
            throws IOException
    {
        assertThat(jars()).anySatisfy(jar -> assertThat(classEntries(jar)).contains("com/google/common/collect/ImmutableList.class"));
    }

    @Test
    void holdsOneVersionOfEachArtifact()
            throws IOException
    {
        // platform-specific classifier jars of one artifact (netty natives) share a version and are fine
        SetMultimap<String, String> versionsByArtifact = HashMultimap.create();
        for (Path jar : jars()) {
            // Hadoop's shaded client keeps the pom.properties of the libraries it relocated under org/apache/hadoop/shaded
            if (jar.getFileName().toString().startsWith("hadoop-client-")) {
                continue;
            }
            for (Properties pom : pomProperties(jar)) {
                versionsByArtifact.put(pom.getProperty("groupId") + ":" + pom.getProperty("artifactId"), pom.getProperty("version"));
            }
        }
        Map<String, Set<String>> conflicts = new TreeMap<>();
        versionsByArtifact.asMap().forEach((artifact, versions) -> {
            if (versions.size() > 1) {
                conflicts.put(artifact, ImmutableSet.copyOf(versions));
            }
        });
        assertThat(conflicts).isEmpty();
    }

    @Test
    void zipHoldsExactlyThePluginFolder()
            throws IOException
    {
        Set<String> folderFiles = jars().stream()
                .map(jar -> "paimon/" + jar.getFileName())
                .collect(toImmutableSet());
        Set<String> zipFiles;
        try (ZipFile zip = new ZipFile(System.getProperty("paimon.plugin.zip"))) {
            zipFiles = zip.stream()
                    .filter(entry -> !entry.isDirectory())
                    .map(ZipEntry::getName)
                    .collect(toImmutableSet());
        }
        assertThat(zipFiles).isEqualTo(folderFiles);
    }

    private List<Path> jars()
            throws IOException
    {
        assertThat(pluginFolder).isDirectory();
        try (Stream<Path> files = Files.list(pluginFolder)) {
            List<Path> all = files.sorted().collect(toImmutableList());
            // Trino puts only the folder's direct entries on the plugin class path: everything must be a jar there
            assertThat(all).allSatisfy(file -> assertThat(file.getFileName().toString()).endsWith(".jar"));
            return all;
        }
    }

    private static List<String> classEntries(Path jar)
            throws IOException
    {
        List<String> entries = new ArrayList<>();
        try (JarFile jarFile = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> jarEntries = jarFile.entries();
            while (jarEntries.hasMoreElements()) {
                String name = jarEntries.nextElement().getName();
                if (name.endsWith(".class")) {
                    entries.add(name);
                }
            }
        }
        return entries;
    }

    private static List<Properties> pomProperties(Path jar)
            throws IOException
    {
        List<Properties> result = new ArrayList<>();
        try (JarFile jarFile = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> entries = jarFile.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                // shaded jars carry the pom.properties of what they shade; only the jar's own artifact counts
                if (entry.getName().startsWith("META-INF/maven/") && entry.getName().endsWith("/pom.properties") && entry.getName().split("/").length == 5) {
                    Properties properties = new Properties();
                    try (InputStream input = jarFile.getInputStream(entry)) {
                        properties.load(input);
                    }
                    result.add(properties);
                }
            }
        }
        // a jar that shades others lists several; the jar's own artifact is the one named like the file
        String fileName = jar.getFileName().toString();
        List<Properties> own = result.stream()
                .filter(properties -> fileName.contains(properties.getProperty("artifactId") + "-" + properties.getProperty("version")))
                .collect(toImmutableList());
        return own.isEmpty() ? result : own;
    }
}
