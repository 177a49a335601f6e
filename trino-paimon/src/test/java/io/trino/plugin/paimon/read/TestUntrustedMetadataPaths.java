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
package io.trino.plugin.paimon.read;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.plugin.paimon.format.MetadataFileNames;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.ManifestWriter;
import io.trino.plugin.paimon.format.manifest.ManifestWriter.WrittenFile;
import io.trino.plugin.paimon.format.manifest.ScanFilter;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.testing.AbstractPaimonJavaQueryTest;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * T18: paths taken from metadata are untrusted. Manifests and snapshots written by this test name files outside the
 * table (relative escapes, absolute paths, other tables, other schemes); every read fails naming the entry before
 * any such file is opened, and the same file named the legitimate way still reads.
 */
final class TestUntrustedMetadataPaths
        extends AbstractPaimonJavaQueryTest
{
    private static final String DATABASE = "paths";

    TestUntrustedMetadataPaths()
    {
        super(DATABASE);
    }

    @Override
    protected void createTables(PaimonJavaCatalog paimon) {}

    @Test
    void dataFileNamesMustBePlainNames()
    {
        createTable("relative_escape");
        tamperFiles("relative_escape", file -> with(file, "fileName", "../../other/bucket-0/" + file.fileName()));
        assertQueryFails("SELECT * FROM relative_escape", "File path escapes table location: data file '\\.\\./\\.\\./other/bucket-0/data-.*' is not inside .*relative_escape/bucket-0");

        createTable("absolute_name");
        tamperFiles("absolute_name", file -> with(file, "fileName", "/etc/hostname"));
        assertQueryFails("SELECT * FROM absolute_name", "File path escapes table location: data file '/etc/hostname' .*");
    }

    @Test
    void externalPathsMustStayInsideTheTable()
    {
        createTable("outside");
        tamperFiles("outside", file -> with(file, "externalPath", Optional.of("file:/etc/hostname")));
        assertQueryFails("SELECT * FROM outside", "File path escapes table location: data file 'file:/etc/hostname' is not inside local:///warehouse/paths.db/outside");

        createTable("neighbour");
        createTable("other_table");
        tamperFiles("neighbour", file -> with(file, "externalPath", Optional.of("local:///warehouse/paths.db/other_table/bucket-0/" + file.fileName())));
        assertQueryFails("SELECT * FROM neighbour", "File path escapes table location: data file 'local:///warehouse/paths.db/other_table/bucket-0/.*");

        createTable("dot_dot");
        tamperFiles("dot_dot", file -> with(file, "externalPath", Optional.of("local:///warehouse/paths.db/dot_dot/../other_table/bucket-0/" + file.fileName())));
        assertQueryFails("SELECT * FROM dot_dot", "File path escapes table location: data file '.*dot_dot/\\.\\./other_table/.*");

        // the same file, named by an external path inside the table, reads as before
        createTable("inside");
        tamperFiles("inside", file -> with(file, "externalPath", Optional.of("local:///warehouse/paths.db/inside/bucket-0/" + file.fileName())));
        assertQuery("SELECT id, name FROM inside", "VALUES (1, 'a'), (2, 'b')");
    }

    @Test
    void manifestNamesMustBePlainNames()
    {
        createTable("manifest_escape");
        TrinoFileSystem fileSystem = new LocalFileSystem(root());
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, location("manifest_escape"));
        Snapshot latest = snapshots.latestSnapshot().orElseThrow();
        Snapshot tampered = with(with(with(latest, "id", latest.id() + 1), "baseManifestList", "../../../../etc/hostname"), "baseManifestListSize", OptionalLong.empty());
        assertThat(snapshots.commit(tampered)).isTrue();
        assertQueryFails("SELECT * FROM manifest_escape", "File path escapes table location: manifest '\\.\\./\\.\\./\\.\\./\\.\\./etc/hostname' is not inside .*manifest_escape/manifest");
    }

    private void createTable(String name)
    {
        assertUpdate("CREATE TABLE %s (id bigint, name varchar) WITH (primary_key = ARRAY['id'], bucket = 1)".formatted(name));
        assertUpdate("INSERT INTO %s VALUES (1, 'a'), (2, 'b')".formatted(name), 2);
    }

    private static Location location(String table)
    {
        return Location.of("local:///warehouse/%s.db/%s".formatted(DATABASE, table));
    }

    // commits a snapshot whose one manifest lists the live files of the latest snapshot, changed
    private void tamperFiles(String table, UnaryOperator<DataFileMeta> change)
    {
        TrinoFileSystem fileSystem = new LocalFileSystem(root());
        Location location = location(table);
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, location);
        Snapshot latest = snapshots.latestSnapshot().orElseThrow();
        List<ManifestEntry> entries = new SnapshotScan(fileSystem, location).liveFiles(latest, ScanFilter.ALL).stream()
                .map(entry -> new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), change.apply(entry.file())))
                .toList();
        ManifestWriter writer = new ManifestWriter(fileSystem, location, new MetadataFileNames());
        ManifestFileMeta manifest = writer.writeManifest(entries, List.of(), latest.schemaId());
        WrittenFile base = writer.writeManifestList(List.of(manifest));
        WrittenFile delta = writer.writeManifestList(List.of());
        Snapshot tampered = with(latest, "id", latest.id() + 1);
        tampered = with(tampered, "baseManifestList", base.name());
        tampered = with(tampered, "baseManifestListSize", OptionalLong.of(base.size()));
        tampered = with(tampered, "deltaManifestList", delta.name());
        tampered = with(tampered, "deltaManifestListSize", OptionalLong.of(delta.size()));
        assertThat(snapshots.commit(tampered)).isTrue();
    }

    // a copy of the record with one component replaced
    private static <R extends Record> R with(R record, String component, Object value)
    {
        try {
            RecordComponent[] components = record.getClass().getRecordComponents();
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                values[i] = components[i].getName().equals(component) ? value : components[i].getAccessor().invoke(record);
            }
            @SuppressWarnings("unchecked")
            Constructor<R> constructor = (Constructor<R>) record.getClass().getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            return constructor.newInstance(values);
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
