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

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of the connector (docs/dev/architecture.md, "Layers"), checked on the main sources: every
 * reference to a class of the connector, imported or fully qualified, must go to a layer the table below allows, and
 * no group of packages may depend on each other in a cycle. The root package is two layers: the top (plugin,
 * factory, module, connector, transaction manager), which nothing else may use, and the shared vocabulary (error
 * codes, config, handles), which every layer may use. Sub-packages of {@code format} count as {@code format}.
 */
final class TestPackageLayering
{
    private static final String ROOT = "io.trino.plugin.paimon";
    private static final String TOP = "top";
    private static final String VOCABULARY = "vocabulary";
    private static final Set<String> TOP_CLASSES = ImmutableSet.of(
            "PaimonPlugin", "PaimonConnectorFactory", "PaimonModule", "PaimonConnector", "PaimonTransactionManager");

    // layer -> the layers it may use besides itself and the vocabulary
    private static final Map<String, Set<String>> ALLOWED = ImmutableMap.<String, Set<String>>builder()
            .put(TOP, ImmutableSet.of("metadata", "catalog", "table", "format", "merge", "read", "write", "procedure", "compaction", "maintenance", "hdfs"))
            .put(VOCABULARY, ImmutableSet.of("table", "format"))
            .put("format", ImmutableSet.of())
            .put("merge", ImmutableSet.of())
            // the Hadoop-backed file system, which only the top wires in
            .put("hdfs", ImmutableSet.of())
            .put("table", ImmutableSet.of("format", "merge"))
            .put("catalog", ImmutableSet.of("format", "table", "maintenance"))
            .put("maintenance", ImmutableSet.of("format", "table"))
            .put("read", ImmutableSet.of("format", "table", "merge"))
            .put("write", ImmutableSet.of("format", "table", "merge"))
            .put("metadata", ImmutableSet.of("catalog", "table", "read", "write", "format", "procedure", "compaction", "maintenance"))
            .put("procedure", ImmutableSet.of("catalog", "table", "read", "write", "format", "compaction", "maintenance"))
            .put("compaction", ImmutableSet.of("catalog", "table", "read", "write", "format"))
            .buildOrThrow();

    // layer -> the only parts of Trino outside the SPI-independent libraries it may use; layers not named may use any
    private static final Map<String, List<String>> ALLOWED_TRINO = ImmutableMap.of(
            // trino-cache: the bounded cache of decoded metadata files (MetadataCache) is built as Trino's connectors build theirs
            "format", ImmutableList.of("io.trino.filesystem.", "io.trino.spi.TrinoException", "io.trino.cache."),
            "merge", ImmutableList.of("io.trino.spi."));

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern CONNECTOR_REFERENCE = Pattern.compile("\\bio\\.trino\\.plugin\\.paimon((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern TRINO_IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?(io\\.trino\\.[\\w.]+)\\s*;", Pattern.MULTILINE);

    @Test
    void noClassUsesALayerAboveOrBesideIt()
    {
        assertThat(violations(mainSources())).isEmpty();
    }

    @Test
    void noPackagesDependOnEachOtherInACycle()
    {
        assertThat(cycles(mainSources())).isEmpty();
    }

    @Test
    void architectureNotesShowTheEnforcedLayers()
            throws IOException
    {
        String notes = Files.readString(Path.of("../docs/dev/architecture.md"));
        int start = notes.indexOf("<!-- layers");
        int end = notes.indexOf("<!-- end of layers -->");
        assertThat(start).as("start of the layers table in architecture.md").isNotNegative();
        assertThat(end).as("end of the layers table in architecture.md").isGreaterThan(start);
        Map<String, Set<String>> documented = new TreeMap<>();
        Map<String, Set<String>> documentedTrino = new TreeMap<>();
        for (String row : notes.substring(start, end).lines().filter(line -> line.startsWith("| `")).toList()) {
            // | layer | what | may use (of Trino, only …) |
            List<String> cells = Splitter.on('|').trimResults().splitToList(row);
            String layer = backticked(cells.get(1)).getFirst();
            String mayUse = cells.get(3);
            int trino = mayUse.indexOf("(of Trino");
            documented.put(layer, ImmutableSet.copyOf(backticked(trino < 0 ? mayUse : mayUse.substring(0, trino))));
            documentedTrino.put(layer, trino < 0 ? ImmutableSet.of() : ImmutableSet.copyOf(backticked(mayUse.substring(trino))));
        }
        Map<String, Set<String>> enforcedTrino = new TreeMap<>();
        for (String layer : ALLOWED.keySet()) {
            enforcedTrino.put(layer, ALLOWED_TRINO.getOrDefault(layer, ImmutableList.of()).stream()
                    .map(prefix -> prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix)
                    .collect(toImmutableSet()));
        }
        assertThat(documented).isEqualTo(new TreeMap<>(ALLOWED));
        assertThat(documentedTrino).isEqualTo(enforcedTrino);
    }

    @Test
    void reportsAnUpwardImportWithItsFile()
    {
        Map<String, String> sources = ImmutableMap.of(
                "format/row/BinaryRow.java", "package io.trino.plugin.paimon.format.row;\n\nimport io.trino.plugin.paimon.read.PaimonSplit;\n",
                "merge/LoserTree.java", "package io.trino.plugin.paimon.merge;\n\nimport io.trino.plugin.paimon.PaimonConnector;\nimport io.trino.parquet.ParquetReaderOptions;\n",
                "read/PaimonSplit.java", "package io.trino.plugin.paimon.read;\n\nimport io.trino.plugin.paimon.PaimonErrorCode;\nimport io.trino.plugin.paimon.format.row.BinaryRow;\n");
        assertThat(violations(sources)).containsExactly(
                "format/row/BinaryRow.java: format must not use read (io.trino.plugin.paimon.read.PaimonSplit)",
                "merge/LoserTree.java: merge must not use top (io.trino.plugin.paimon.PaimonConnector)",
                "merge/LoserTree.java: merge must not use io.trino.parquet.ParquetReaderOptions");
    }

    @Test
    void reportsACycleBetweenPackages()
    {
        Map<String, String> sources = ImmutableMap.of(
                "format/row/BinaryRow.java", "package io.trino.plugin.paimon.format.row;\n\nimport io.trino.plugin.paimon.format.schema.DataType;\n",
                "format/schema/DataType.java", "package io.trino.plugin.paimon.format.schema;\n\nimport io.trino.plugin.paimon.format.row.Timestamp;\n",
                "format/snapshot/Snapshot.java", "package io.trino.plugin.paimon.format.snapshot;\n\nimport io.trino.plugin.paimon.format.row.BinaryRow;\n");
        assertThat(cycles(sources)).containsExactly(
                "[io.trino.plugin.paimon.format.row, io.trino.plugin.paimon.format.schema]");
    }

    private static List<String> backticked(String text)
    {
        List<String> names = new ArrayList<>();
        Matcher matcher = BACKTICKED.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /**
     * The main sources by path relative to the connector's root package: the shared ones, and those of each Trino
     * release's overlay, prefixed by the overlay's folder.
     */
    private static Map<String, String> mainSources()
    {
        // the Trino 483 build runs these tests from its own module, over trino-paimon's sources
        Path sourceRoot = Path.of(System.getProperty("paimon.shared.sources", "src"));
        Map<String, String> sources = new TreeMap<>();
        for (String folder : List.of("main/java", "trino476/java", "trino483/java")) {
            Path root = sourceRoot.resolve(folder).resolve(ROOT.replace('.', '/'));
            assertThat(root).isDirectory();
            String prefix = folder.equals("main/java") ? "" : folder + ":";
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                    sources.put(prefix + root.relativize(file), Files.readString(file));
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(sources).isNotEmpty();
        return sources;
    }

    private static List<String> violations(Map<String, String> sources)
    {
        List<String> violations = new ArrayList<>();
        sources.forEach((file, source) -> {
            String layer = layer(packageOf(file, source), className(file));
            for (String reference : connectorReferences(source)) {
                String target = layer(packageName(reference), simpleName(reference));
                if (!target.equals(layer) && !target.equals(VOCABULARY) && !ALLOWED.get(layer).contains(target)) {
                    violations.add("%s: %s must not use %s (%s)".formatted(file, layer, target, reference));
                }
            }
            List<String> allowedTrino = ALLOWED_TRINO.get(layer);
            if (allowedTrino != null) {
                Matcher matcher = TRINO_IMPORT.matcher(source);
                while (matcher.find()) {
                    String imported = matcher.group(1);
                    if (!imported.startsWith(ROOT + ".") && allowedTrino.stream().noneMatch(imported::startsWith)) {
                        violations.add("%s: %s must not use %s".formatted(file, layer, imported));
                    }
                }
            }
        });
        return violations;
    }

    /**
     * Strongly connected groups of more than one node, where a node is a package, except that the top of the root
     * package is one node and each vocabulary class its own (a handle may name the table model that uses the error
     * codes without a cycle).
     */
    private static List<String> cycles(Map<String, String> sources)
    {
        Map<String, Set<String>> graph = new TreeMap<>();
        sources.forEach((file, source) -> {
            String node = node(packageOf(file, source), className(file));
            Set<String> edges = graph.computeIfAbsent(node, _ -> new TreeSet<>());
            for (String reference : connectorReferences(source)) {
                String target = node(packageName(reference), simpleName(reference));
                if (!target.equals(node)) {
                    edges.add(target);
                }
            }
        });
        return stronglyConnected(graph).stream()
                .filter(component -> component.size() > 1)
                .map(Object::toString)
                .toList();
    }

    private static String node(String packageName, String className)
    {
        if (!packageName.equals(ROOT)) {
            return packageName;
        }
        return TOP_CLASSES.contains(className) ? ROOT + " (top)" : ROOT + "." + className;
    }

    private static String layer(String packageName, String className)
    {
        if (packageName.equals(ROOT)) {
            return TOP_CLASSES.contains(className) ? TOP : VOCABULARY;
        }
        String layer = packageName.substring(ROOT.length() + 1).split("\\.")[0];
        assertThat(ALLOWED).as("layer of package %s", packageName).containsKey(layer);
        return layer;
    }

    private static Set<String> connectorReferences(String source)
    {
        Set<String> references = new TreeSet<>();
        Matcher matcher = CONNECTOR_REFERENCE.matcher(PACKAGE.matcher(source).replaceFirst(""));
        while (matcher.find()) {
            references.add(matcher.group());
        }
        return references;
    }

    private static String packageOf(String file, String source)
    {
        Matcher matcher = PACKAGE.matcher(source);
        assertThat(matcher.find()).as("package declaration of %s", file).isTrue();
        return matcher.group(1);
    }

    private static String className(String file)
    {
        return Path.of(file).getFileName().toString().replace(".java", "");
    }

    // references end at their first upper-case segment (the top-level class), so the package is what precedes it
    private static String packageName(String className)
    {
        return className.substring(0, className.length() - simpleName(className).length() - 1);
    }

    private static String simpleName(String className)
    {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    // Tarjan's algorithm, iterative over an explicit stack of (node, next edge) frames
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph)
    {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> lowLink = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        for (String start : graph.keySet()) {
            if (index.containsKey(start)) {
                continue;
            }
            Deque<Map.Entry<String, List<String>>> frames = new ArrayDeque<>();
            visit(start, graph, index, lowLink, stack, onStack, frames);
            while (!frames.isEmpty()) {
                Map.Entry<String, List<String>> frame = frames.peek();
                String node = frame.getKey();
                List<String> remaining = frame.getValue();
                if (!remaining.isEmpty()) {
                    String next = remaining.removeFirst();
                    if (!index.containsKey(next)) {
                        visit(next, graph, index, lowLink, stack, onStack, frames);
                    }
                    else if (onStack.contains(next)) {
                        lowLink.put(node, Math.min(lowLink.get(node), index.get(next)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    String parent = frames.peek().getKey();
                    lowLink.put(parent, Math.min(lowLink.get(parent), lowLink.get(node)));
                }
                if (lowLink.get(node).equals(index.get(node))) {
                    Set<String> component = new TreeSet<>();
                    String member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        component.add(member);
                    }
                    while (!member.equals(node));
                    components.add(component);
                }
            }
        }
        return components;
    }

    private static void visit(String node, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> lowLink,
            Deque<String> stack, Set<String> onStack, Deque<Map.Entry<String, List<String>>> frames)
    {
        index.put(node, index.size());
        lowLink.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        frames.push(Map.entry(node, new ArrayList<>(graph.getOrDefault(node, Set.of()))));
    }
}
