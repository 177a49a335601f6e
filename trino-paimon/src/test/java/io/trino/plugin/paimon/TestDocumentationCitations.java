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

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The developer notes the code cites by section ({@code paimon-format.md §7.1}, {@code merge-semantics §2.7}) are in
 * the repository, under docs/dev, and every section a comment names is a heading there; every other note a main
 * source names by file ({@code name.md}) is a file under docs or the README. So a reader can follow each citation,
 * and renumbering a note without fixing its citations fails here.
 */
final class TestDocumentationCitations
{
    private static final Path DOCS = Path.of("../docs");
    // the Trino 483 build runs these tests from its own module, over trino-paimon's sources
    private static final Path SOURCES = Path.of(System.getProperty("paimon.shared.sources", "src"));
    private static final Map<String, String> CITED_NOTES = ImmutableMap.of(
            "paimon-format", "dev/paimon-format.md",
            "merge-semantics", "dev/merge-semantics.md");

    // a note's name, then one or more sections: "§2.3", "§5.3, §7.1", "§2.5 - §2.8", "§4-§7"; comments may wrap between them
    private static final Pattern CITATION = Pattern.compile(
            "\\b(paimon-format|merge-semantics)(?:\\.md)?[\\s*/]*(§\\d+(?:\\.\\d+)*(?:[\\s*/]*(?:,|-|–|and)[\\s*/]*§\\d+(?:\\.\\d+)*)*)");
    private static final Pattern SECTION = Pattern.compile("§(\\d+(?:\\.\\d+)*)");
    // "## 7. Data files", "### 7.1 Primary-key table data file"
    private static final Pattern HEADING = Pattern.compile("^#{2,4}\\s+(\\d+(?:\\.\\d+)*)\\.?\\s", Pattern.MULTILINE);
    private static final Pattern NOTE_FILE = Pattern.compile("\\b([\\w-]+\\.md)\\b");

    @Test
    void everyCitedSectionIsAHeadingOfItsNote()
    {
        Map<String, Set<String>> sections = new TreeMap<>();
        CITED_NOTES.forEach((note, file) -> sections.put(note, headings(read(DOCS.resolve(file)))));
        assertThat(sections.get("paimon-format")).contains("1", "1.1", "7.1", "11.2", "12");
        assertThat(sections.get("merge-semantics")).contains("2.1", "2.7", "5.2", "7.2", "13");

        Map<String, String> sources = new TreeMap<>(sources(SOURCES.resolve("main/java")));
        sources.putAll(sources(SOURCES.resolve("test/java")));
        assertThat(unresolvedCitations(sources, sections)).isEmpty();
    }

    @Test
    void everyNoteAMainSourceNamesIsUnderDocs()
    {
        Set<String> notes = new TreeSet<>();
        try (Stream<Path> files = Files.walk(DOCS)) {
            files.map(path -> path.getFileName().toString())
                    .filter(name -> name.endsWith(".md"))
                    .forEach(notes::add);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // and the README beside the docs
        if (Files.isRegularFile(DOCS.resolveSibling("README.md"))) {
            notes.add("README.md");
        }
        assertThat(missingNotes(sources(SOURCES.resolve("main/java")), notes)).isEmpty();
    }

    @Test
    void reportsACitationOfAMissingSection()
    {
        Map<String, Set<String>> sections = ImmutableMap.of(
                "paimon-format", headings("## 7. Data files\n\n### 7.1 Primary-key table data file\n"),
                "merge-semantics", headings("## 2. Read path\n### 2.5 The loser tree\n### 2.8 Dropping\n"));
        Map<String, String> sources = ImmutableMap.of(
                "a/A.java", "/** Layout (paimon-format.md §7.1), see also §7.4 of nothing. */",
                "b/B.java", "/** Merge (merge-semantics §2.5 - §2.8, paimon-format.md §7.2). */",
                "c/C.java", "/**\n * What a lookup does (merge-semantics\n * §2.7, §2.8).\n */");
        assertThat(unresolvedCitations(sources, sections)).containsExactly(
                "b/B.java: paimon-format.md §7.2",
                "c/C.java: merge-semantics.md §2.7");
    }

    @Test
    void reportsANoteThatIsNotUnderDocs()
    {
        Map<String, String> sources = ImmutableMap.of(
                "a/A.java", "/** See paimon-format.md §1 and reliability.md §0.1. */");
        assertThat(missingNotes(sources, ImmutableSet.of("paimon-format.md"))).containsExactly("a/A.java: reliability.md");
    }

    private static List<String> unresolvedCitations(Map<String, String> sources, Map<String, Set<String>> sections)
    {
        List<String> unresolved = new ArrayList<>();
        sources.forEach((file, source) -> {
            Matcher citation = CITATION.matcher(source);
            while (citation.find()) {
                String note = citation.group(1);
                Matcher section = SECTION.matcher(citation.group(2));
                while (section.find()) {
                    if (!sections.get(note).contains(section.group(1))) {
                        unresolved.add("%s: %s.md §%s".formatted(file, note, section.group(1)));
                    }
                }
            }
        });
        return unresolved;
    }

    private static List<String> missingNotes(Map<String, String> sources, Set<String> notes)
    {
        List<String> missing = new ArrayList<>();
        sources.forEach((file, source) -> {
            Matcher note = NOTE_FILE.matcher(source);
            while (note.find()) {
                if (!notes.contains(note.group(1))) {
                    missing.add("%s: %s".formatted(file, note.group(1)));
                }
            }
        });
        return missing;
    }

    private static Set<String> headings(String markdown)
    {
        Set<String> headings = new TreeSet<>();
        Matcher heading = HEADING.matcher(markdown);
        while (heading.find()) {
            headings.add(heading.group(1));
        }
        return headings;
    }

    /** The Java sources under a root, by path relative to it. */
    private static Map<String, String> sources(Path root)
    {
        assertThat(root).isDirectory();
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                sources.put(root.relativize(file).toString(), read(file));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(sources).isNotEmpty();
        return sources;
    }

    private static String read(Path file)
    {
        assertThat(file).isRegularFile();
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
