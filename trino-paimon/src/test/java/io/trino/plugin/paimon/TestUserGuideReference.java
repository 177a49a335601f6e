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

import io.airlift.configuration.Config;
import io.trino.plugin.hive.metastore.thrift.StaticMetastoreConfig;
import io.trino.plugin.paimon.catalog.hive.HiveMetastoreCatalogConfig;
import io.trino.plugin.paimon.catalog.jdbc.JdbcCatalogConfig;
import io.trino.plugin.paimon.catalog.rest.RestCatalogConfig;
import io.trino.plugin.paimon.hdfs.HdfsConfig;
import io.trino.plugin.paimon.hdfs.HdfsEnvironment;
import io.trino.plugin.paimon.metadata.PaimonMetadata;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.TempWarehouse;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.testing.TestingConnectorContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static com.google.common.collect.Iterables.getOnlyElement;
import static java.util.Locale.ENGLISH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The reference tables of the user guide name exactly what the code offers: catalog properties (the {@code @Config}
 * keys of each configuration class), session properties, table properties, procedures and system tables, in both
 * directions, so that neither a documented name without code nor code without a documented name goes unnoticed.
 */
@TestInstance(PER_CLASS)
final class TestUserGuideReference
{
    private static final Path DOCS = Path.of("../docs");
    // a table row's first cell
    private static final Pattern ROW = Pattern.compile("^\\| ([^|]+) \\|", Pattern.MULTILINE);
    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");
    // a system table's row: | `"<table>$snapshots"` | ...
    private static final Pattern SYSTEM_TABLE = Pattern.compile("^\\| `\"<table>\\$([a-z_]+)\"` \\|", Pattern.MULTILINE);
    // a heading that names procedures: "### optimize", "### expire_snapshots and remove_orphan_files"
    private static final Pattern PROCEDURE_HEADING = Pattern.compile("^(#{2,3}) ([a-z_]+(?: and [a-z_]+)*)$", Pattern.MULTILINE);
    // a section of what is not supported yet, to the next heading
    private static final Pattern NOT_YET_SECTION = Pattern.compile("^#+ Not yet supported\\n(.*?)(?=^#|\\z)", Pattern.MULTILINE | Pattern.DOTALL);
    // "Not yet: ..." to the end of its sentence: a full stop before a capital letter or the end of the paragraph
    private static final Pattern NOT_YET = Pattern.compile("Not yet: .*?(?:\\.(?= [A-Z])|$)");
    private static final Pattern CLAUSE_END = Pattern.compile(";|\\.(?= [A-Z])");

    private TempWarehouse warehouse;
    private Connector connector;

    @BeforeAll
    void createConnector()
            throws Exception
    {
        warehouse = TempWarehouse.create();
        ConnectorFactory factory = getOnlyElement(new PaimonPlugin().getConnectorFactories());
        connector = factory.create("paimon", PaimonQueryRunner.catalogProperties(warehouse.root()), new TestingConnectorContext());
    }

    @AfterAll
    void shutdown()
            throws Exception
    {
        if (connector != null) {
            connector.shutdown();
        }
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void catalogPropertiesAreTheConfigurationClassesKeys()
            throws IOException
    {
        assertThat(names("configuration.md", "## Catalog properties")).isEqualTo(configKeys(PaimonConfig.class));
        // the metastore is reached through Trino's Thrift metastore module, whose key of the metastore's URI is named
        assertThat(names("configuration.md", "## Hive Metastore catalog properties"))
                .isEqualTo(union(configKeys(HiveMetastoreCatalogConfig.class), Set.of("hive.metastore.uri")));
        assertThat(configKeys(StaticMetastoreConfig.class)).contains("hive.metastore.uri");
        assertThat(names("catalogs-and-file-systems.md", "## The JDBC catalog")).isEqualTo(configKeys(JdbcCatalogConfig.class));
        // the header keys are read by RestCatalogModule by their prefix, not through the configuration class
        assertThat(names("catalogs-and-file-systems.md", "## REST catalog"))
                .isEqualTo(union(configKeys(RestCatalogConfig.class), Set.of("paimon.rest.header.<name>")));
        // fs.hadoop.enabled is read by the connector factory, which installs the HDFS module only when it is true
        assertThat(names("catalogs-and-file-systems.md", "## HDFS"))
                .isEqualTo(union(configKeys(HdfsConfig.class), Set.of("fs.hadoop.enabled")));
    }

    @Test
    void sessionPropertiesAreTheConnectorsVisibleOnes()
            throws IOException
    {
        Set<String> visible = connector.getSessionProperties().stream()
                .filter(property -> !property.isHidden())
                .map(PropertyMetadata::getName)
                .collect(toImmutableSet());
        assertThat(names("configuration.md", "## Session properties")).isEqualTo(visible);
    }

    @Test
    void tablePropertiesAreTheConnectors()
            throws IOException
    {
        Set<String> properties = connector.getTableProperties().stream().map(PropertyMetadata::getName).collect(toImmutableSet());
        assertThat(names("table-properties.md", "# Table properties")).isEqualTo(properties);
    }

    @Test
    void proceduresAreTheConnectors()
            throws IOException
    {
        String text = Files.readString(DOCS.resolve("procedures.md"));
        // table procedures are the sections of "## Table procedures", CALL procedures have sections of their own
        Set<String> tableProcedures = procedureHeadings(text, "###");
        Set<String> procedures = procedureHeadings(text, "##");
        // Trino's table procedure names are upper case; ALTER TABLE ... EXECUTE takes them in any case
        assertThat(tableProcedures).isEqualTo(connector.getTableProcedures().stream()
                .map(TableProcedureMetadata::getName)
                .map(name -> name.toLowerCase(Locale.ENGLISH))
                .collect(toImmutableSet()));
        assertThat(procedures).isEqualTo(connector.getProcedures().stream().map(Procedure::getName).collect(toImmutableSet()));
    }

    @Test
    void tableFunctionArgumentsAreTheConnectors()
            throws IOException
    {
        assertThat(connector.getTableFunctions()).extracting(ConnectorTableFunction::getName).containsExactly("table_changes");
        assertThat(names("changes.md", "## Arguments")).isEqualTo(connector.getTableFunctions().iterator().next().getArguments().stream()
                .map(argument -> argument.getName().toLowerCase(ENGLISH))
                .collect(toImmutableSet()));
    }

    @Test
    void systemTablesAreTheMetadatas()
            throws IOException
    {
        Matcher rows = SYSTEM_TABLE.matcher(Files.readString(DOCS.resolve("system-tables.md")));
        assertThat(rows.results().map(row -> row.group(1)).collect(toImmutableSet())).isEqualTo(PaimonMetadata.systemTableNames());
    }

    /**
     * What the user guide and the README say is not supported (the items of a "Not yet supported" section, the
     * sentences after "Not yet:", the clauses that say "not supported") names no feature the code has: a catalog type,
     * a file system, a procedure, a system table, views, TRUNCATE. Each feature is listed here with the code that
     * shows it, so that a new catalog type, for one, needs its phrase.
     */
    @Test
    void notYetSupportedNamesNoFeatureTheCodeHas()
            throws IOException
    {
        Map<String, Pattern> features = featuresOfTheCode();
        List<String> statements = new ArrayList<>();
        try (Stream<Path> files = Files.list(DOCS)) {
            for (Path file : Stream.concat(Stream.of(DOCS.resolve("../README.md")), files.filter(path -> path.toString().endsWith(".md")).sorted()).toList()) {
                notSupportedStatements(Files.readString(file)).forEach(statement -> statements.add(file.normalize() + ": " + statement));
            }
        }
        assertThat(statements).as("statements of what is not supported").isNotEmpty();
        List<String> contradicted = new ArrayList<>();
        for (String statement : statements) {
            features.forEach((feature, phrase) -> {
                if (phrase.matcher(statement).find()) {
                    contradicted.add("%s%n    names %s, which the code has".formatted(statement, feature));
                }
            });
        }
        assertThat(contradicted).as("statements of what is not supported that name a supported feature").isEmpty();
    }

    /** Features by what shows them in the code, each with the phrase that names it in the user guide. */
    private Map<String, Pattern> featuresOfTheCode()
    {
        Map<String, Pattern> features = new LinkedHashMap<>();
        for (CatalogType type : CatalogType.values()) {
            String phrase = switch (type) {
                case FILESYSTEM -> "filesystem catalog";
                case HIVE_METASTORE -> "Hive Metastore";
                case JDBC -> "\\bJDBC\\b";
                // a REST server's data tokens for other stores than S3 are another matter than the REST catalog
                case REST -> "\\bREST\\b(?! server)";
            };
            features.put("paimon.catalog.type=" + type, Pattern.compile(phrase));
        }
        for (String scheme : HdfsEnvironment.builtInSchemes()) {
            features.put(scheme + ":// warehouses (HdfsEnvironment)", Pattern.compile("\\b" + scheme + "\\b", Pattern.CASE_INSENSITIVE));
        }
        features.put("HDFS with Kerberos (HdfsConfig.AuthenticationType." + HdfsConfig.AuthenticationType.KERBEROS + ")", Pattern.compile("Kerberos"));
        if (declares(PaimonMetadata.class, "createView")) {
            features.put("views (PaimonMetadata.createView)", Pattern.compile("(?<!materialized )\\bviews?\\b", Pattern.CASE_INSENSITIVE));
        }
        if (declares(PaimonMetadata.class, "truncateTable")) {
            features.put("TRUNCATE TABLE (PaimonMetadata.truncateTable)", Pattern.compile("\\bTRUNCATE\\b"));
        }
        connector.getTableProcedures().forEach(procedure -> features.put(
                "table procedure " + procedure.getName(),
                Pattern.compile("\\b" + procedure.getName() + "\\b", Pattern.CASE_INSENSITIVE)));
        connector.getProcedures().forEach(procedure -> features.put(
                "procedure " + procedure.getName(),
                Pattern.compile("\\b" + procedure.getName() + "\\b")));
        PaimonMetadata.systemTableNames().forEach(name -> features.put(
                "system table $" + name,
                Pattern.compile("\\$" + name + "\\b")));
        return features;
    }

    private static boolean declares(Class<?> type, String method)
    {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(declared -> declared.getName().equals(method));
    }

    /**
     * The items of the "Not yet supported" sections, each "Not yet: …" to the end of its sentence, and each clause
     * (between semicolons and sentence ends) that says "not supported", outside code blocks.
     */
    private static List<String> notSupportedStatements(String markdown)
    {
        StringBuilder prose = new StringBuilder();
        boolean inCode = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            else if (!inCode) {
                prose.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        Matcher section = NOT_YET_SECTION.matcher(prose);
        while (section.find()) {
            // the section's lists; its other paragraphs are prose, read below as every paragraph is
            Arrays.stream(section.group(1).split("\n\\s*\n"))
                    .map(String::strip)
                    .filter(paragraph -> paragraph.startsWith("- "))
                    .flatMap(list -> Arrays.stream(list.substring(2).split("\n- ")))
                    .map(item -> item.replaceAll("\\s+", " ").strip())
                    .forEach(statements::add);
        }
        // paragraphs, list items and table rows, each on one line
        for (String paragraph : prose.toString().split("\n\\s*\n|\n(?=- |\\| |#)")) {
            String text = paragraph.replaceAll("\\s+", " ").strip();
            Matcher notYet = NOT_YET.matcher(text);
            while (notYet.find()) {
                statements.add(notYet.group());
            }
            for (String clause : CLAUSE_END.split(text)) {
                if (clause.toLowerCase(Locale.ENGLISH).contains("not supported")) {
                    statements.add(clause.strip());
                }
            }
        }
        return statements;
    }

    /**
     * The names in the first column of the tables of a section (from its heading to the next heading): every quoted
     * name of the cell before any parenthesis, so that "`primary_key` (array)" names primary_key and
     * "`paimon.jdbc.user`, `paimon.jdbc.password`" both keys.
     */
    private static Set<String> names(String file, String heading)
            throws IOException
    {
        List<String> lines = Files.readAllLines(DOCS.resolve(file));
        int start = lines.indexOf(heading);
        assertThat(start).as("heading '%s' of %s", heading, file).isNotNegative();
        // headings only: the '#' comment lines of the properties examples are inside code blocks
        StringBuilder section = new StringBuilder();
        boolean inCode = false;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            if (!inCode && line.startsWith("#")) {
                break;
            }
            section.append(line).append('\n');
        }
        Set<String> names = ROW.matcher(section).results()
                .map(row -> row.group(1).split(" \\(")[0])
                .flatMap(cell -> QUOTED.matcher(cell).results().map(name -> name.group(1)))
                .collect(toImmutableSet());
        assertThat(names).as("names in the tables under '%s' of %s", heading, file).isNotEmpty();
        return names;
    }

    private static Set<String> procedureHeadings(String text, String level)
    {
        return PROCEDURE_HEADING.matcher(text).results()
                .filter(heading -> heading.group(1).equals(level))
                .flatMap(heading -> Arrays.stream(heading.group(2).split(" and ")))
                .collect(toImmutableSet());
    }

    private static Set<String> configKeys(Class<?> configClass)
    {
        return Arrays.stream(configClass.getMethods())
                .map(method -> method.getAnnotation(Config.class))
                .filter(Objects::nonNull)
                .map(Config::value)
                .collect(toImmutableSet());
    }

    private static Set<String> union(Set<String> first, Set<String> second)
    {
        return Stream.concat(first.stream(), second.stream()).collect(toImmutableSet());
    }
}
