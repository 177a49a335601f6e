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
package io.trino.plugin.paimon.testing;

import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.manifest.ManifestEntry;
import io.trino.plugin.paimon.format.manifest.ManifestEntry.FileKind;
import io.trino.plugin.paimon.format.manifest.ManifestFileMeta;
import io.trino.plugin.paimon.format.manifest.SnapshotScan;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.SchemaFiles;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.snapshot.Snapshot;
import io.trino.plugin.paimon.format.snapshot.SnapshotFiles;
import io.trino.plugin.paimon.table.TableOptions;
import io.trino.testing.QueryRunner;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.fs.Path;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.Table;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Checks a table's invariants after a reliability test (reliability.md §3.0) and returns what it found broken, one
 * message per violation naming the snapshot or file:
 * <ul>
 * <li>I1 snapshot ids are contiguous from the earliest to the latest, each parses, its schema exists;</li>
 * <li>I2 every manifest list, manifest and index manifest a snapshot refers to exists, with the recorded size, and so
 * does every changelog file its changelog manifests list;</li>
 * <li>I3 replaying each snapshot's manifests adds no file twice and deletes only live files (Paimon Java's
 * {@code FileEntry.mergeEntries} rules, which make the table unreadable when broken);</li>
 * <li>I4 every live data file exists with its recorded size ({@link #contents} also checks its row count);</li>
 * <li>I5 ({@link #contents}) no key appears twice with one sequence number in a bucket;</li>
 * <li>I6 no file named {@code snapshot-*} or {@code schema-*} whose id is not a number;</li>
 * <li>I7 the {@code LATEST} hint, when present, is a number no larger than the latest snapshot id;</li>
 * <li>I8 ({@link #paimonJavaDifferences}) Paimon Java 1.4.2 reads the same rows as our reader.</li>
 * </ul>
 */
public final class Fsck
{
    private static final Pattern NUMBERED = Pattern.compile("(snapshot|schema)-\\d+");

    private final TrinoFileSystem fileSystem;
    private final Location table;
    private final List<String> violations = new ArrayList<>();

    private Fsck(TrinoFileSystem fileSystem, Location table)
    {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.table = requireNonNull(table, "table is null");
    }

    /** I1–I4 (without data file contents), I6, I7 on the table's metadata and files. */
    public static List<String> metadata(TrinoFileSystem fileSystem, Location table)
    {
        Fsck fsck = new Fsck(fileSystem, table);
        try {
            fsck.check();
        }
        catch (RuntimeException e) {
            fsck.violations.add("fsck could not walk the table: " + e);
        }
        return List.copyOf(fsck.violations);
    }

    /** I1–I7 on a table that Paimon Java can open: {@link #metadata}, then each live data file's rows and keys. */
    public static List<String> check(TrinoFileSystem fileSystem, Location table, Table paimonTable)
    {
        List<String> violations = new ArrayList<>(metadata(fileSystem, table));
        if (violations.isEmpty()) {
            violations.addAll(contents(paimonTable));
        }
        return violations;
    }

    /**
     * I4 row counts and I5 on the live data files of a primary-key table, read raw (key, sequence number) with
     * Paimon Java's file format reader; for tables of up to about 10⁵ rows.
     */
    public static List<String> contents(Table paimonTable)
    {
        FileStoreTable table = (FileStoreTable) paimonTable;
        List<String> violations = new ArrayList<>();
        if (table.schema().primaryKeys().isEmpty()) {
            return violations;
        }
        List<org.apache.paimon.types.DataField> keyFields = table.schema().trimmedPrimaryKeysFields().stream()
                .map(field -> field.newName(SpecialFields.KEY_FIELD_PREFIX + field.name()).newId(SpecialFields.KEY_FIELD_ID_START + field.id()))
                .toList();
        List<org.apache.paimon.types.DataField> fileFields = new ArrayList<>(keyFields);
        fileFields.add(SpecialFields.SEQUENCE_NUMBER);
        fileFields.add(SpecialFields.VALUE_KIND);
        fileFields.addAll(table.schema().fields());
        List<org.apache.paimon.types.DataField> projectedFields = new ArrayList<>(keyFields);
        projectedFields.add(SpecialFields.SEQUENCE_NUMBER);
        RowType projected = new RowType(projectedFields);
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < projectedFields.size(); i++) {
            getters.add(InternalRow.createFieldGetter(projected.getTypeAt(i), i));
        }
        FileFormat format = FileFormat.fileFormat(table.coreOptions());
        var readerFactory = format.createReaderFactory(new RowType(fileFields), projected, List.of());

        Map<String, String> seen = new HashMap<>();
        for (org.apache.paimon.manifest.ManifestEntry entry : table.store().newScan().plan().files()) {
            Path path = table.store().pathFactory().createDataFilePathFactory(entry.partition(), entry.bucket()).toPath(entry.file());
            long rows = 0;
            try (RecordReader<InternalRow> reader = readerFactory.createReader(new FormatReaderContext(table.fileIO(), path, entry.file().fileSize()))) {
                var iterator = reader.toCloseableIterator();
                while (iterator.hasNext()) {
                    InternalRow row = iterator.next();
                    rows++;
                    StringJoiner key = new StringJoiner(", ", "bucket %s %s key (".formatted(entry.bucket(), HexFormat.of().formatHex(entry.partition().toBytes())), ")");
                    for (int i = 0; i < keyFields.size(); i++) {
                        key.add(String.valueOf(getters.get(i).getFieldOrNull(row)));
                    }
                    String keyAndSequence = key + " sequence " + row.getLong(keyFields.size());
                    String previous = seen.putIfAbsent(keyAndSequence, entry.file().fileName());
                    if (previous != null) {
                        violations.add("I5: %s appears in %s and %s".formatted(keyAndSequence, previous, entry.file().fileName()));
                    }
                }
                iterator.close();
            }
            catch (Exception e) {
                violations.add("I4: data file %s cannot be read: %s".formatted(path, e));
                continue;
            }
            if (rows != entry.file().rowCount()) {
                violations.add("I4: data file %s has %s rows, its manifest entry says %s".formatted(path, rows, entry.file().rowCount()));
            }
        }
        return violations;
    }

    /**
     * I8: the rows our reader returns for {@code SELECT * FROM <sqlTable>} against the rows Paimon Java reads, both
     * as {@link RowText#paimonText}; empty when they are equal, else the two lists.
     */
    public static List<String> paimonJavaDifferences(QueryRunner queryRunner, String sqlTable, Table paimonTable)
    {
        List<String> ours = RowText.paimonText(queryRunner.execute("SELECT * FROM " + sqlTable));
        List<String> paimon = RowText.paimonText(paimonTable);
        if (ours.equals(paimon)) {
            return List.of();
        }
        return List.of("I8: our reader returns %s rows %s; Paimon Java %s rows %s".formatted(ours.size(), ours, paimon.size(), paimon));
    }

    private void check()
    {
        SnapshotFiles snapshots = new SnapshotFiles(fileSystem, table);
        SchemaFiles schemas = new SchemaFiles(fileSystem, table);
        SnapshotScan scan = new SnapshotScan(fileSystem, table);

        // I6
        for (String directory : List.of(SnapshotFiles.SNAPSHOT_DIRECTORY, "schema")) {
            for (String name : fileNames(table.appendPath(directory))) {
                if ((name.startsWith("snapshot-") || name.startsWith("schema-")) && !NUMBERED.matcher(name).matches()) {
                    violations.add("I6: %s/%s is not a numbered snapshot or schema file; Paimon Java 1.4.2 fails listing it".formatted(directory, name));
                }
            }
        }

        // I1
        List<Long> ids = snapshots.listSnapshotIds();
        OptionalLong earliest = snapshots.earliestSnapshotId();
        if (!ids.isEmpty()) {
            for (long id = earliest.orElse(ids.getFirst()); id <= ids.getLast(); id++) {
                if (!ids.contains(id)) {
                    violations.add("I1: snapshot %s is missing between %s and %s".formatted(id, ids.getFirst(), ids.getLast()));
                }
            }
        }

        // I7
        Optional<String> latestHint = readText(table.appendPath(SnapshotFiles.SNAPSHOT_DIRECTORY).appendPath(SnapshotFiles.LATEST_HINT));
        if (latestHint.isPresent()) {
            String hint = latestHint.get().trim();
            if (!hint.matches("\\d{1,18}")) {
                violations.add("I7: LATEST hint is not a snapshot id: '%s'".formatted(hint));
            }
            else if (ids.isEmpty() || Long.parseLong(hint) > ids.getLast()) {
                violations.add("I7: LATEST hint %s is ahead of the latest snapshot %s".formatted(hint, ids.isEmpty() ? "(none)" : ids.getLast()));
            }
        }

        Set<Long> schemaIds = new HashSet<>(schemas.listSchemaIds());
        TableSchema latestSchema = null;
        Map<ManifestEntry.Identifier, ManifestEntry> live = new LinkedHashMap<>();
        for (long id : ids) {
            Snapshot snapshot;
            try {
                snapshot = snapshots.readSnapshot(id);
            }
            catch (RuntimeException e) {
                violations.add("I1: snapshot %s does not parse: %s".formatted(id, e.getMessage()));
                continue;
            }
            if (!schemaIds.contains(snapshot.schemaId())) {
                violations.add("I1: snapshot %s refers to schema %s, which does not exist".formatted(id, snapshot.schemaId()));
            }
            else {
                latestSchema = schemas.readSchema(snapshot.schemaId());
            }
            // I2
            checkSize("I2: snapshot %s base manifest list".formatted(id), scan.manifestLocation(snapshot.baseManifestList()), snapshot.baseManifestListSize());
            checkSize("I2: snapshot %s delta manifest list".formatted(id), scan.manifestLocation(snapshot.deltaManifestList()), snapshot.deltaManifestListSize());
            snapshot.indexManifest().ifPresent(index -> checkSize("I2: snapshot %s index manifest".formatted(id), scan.manifestLocation(index), OptionalLong.empty()));
            List<ManifestFileMeta> base;
            List<ManifestFileMeta> delta;
            try {
                base = scan.readManifestList(snapshot.baseManifestList(), snapshot.baseManifestListSize());
                delta = scan.readManifestList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize());
            }
            catch (RuntimeException e) {
                violations.add("I2: manifest lists of snapshot %s cannot be read: %s".formatted(id, e.getMessage()));
                continue;
            }
            // I3: the snapshot's live set, from its base and delta manifests in order
            Map<ManifestEntry.Identifier, ManifestEntry> files = new LinkedHashMap<>();
            List<ManifestFileMeta> manifests = new ArrayList<>(base);
            manifests.addAll(delta);
            for (ManifestFileMeta manifest : manifests) {
                if (!checkSize("I2: snapshot %s manifest".formatted(id), scan.manifestLocation(manifest.fileName()), OptionalLong.of(manifest.fileSize()))) {
                    continue;
                }
                for (ManifestEntry entry : scan.readManifest(manifest)) {
                    if (entry.kind() == FileKind.ADD) {
                        if (files.putIfAbsent(entry.identifier(), entry) != null) {
                            violations.add("I3: snapshot %s adds file %s, which is already added".formatted(id, entry.file().fileName()));
                        }
                    }
                    else if (files.remove(entry.identifier()) == null) {
                        violations.add("I3: snapshot %s deletes file %s, which is not live".formatted(id, entry.file().fileName()));
                    }
                }
            }
            live = files;
        }

        // I2 for the changelog files of every snapshot
        if (latestSchema != null) {
            for (long id : ids) {
                Snapshot snapshot;
                try {
                    snapshot = snapshots.readSnapshot(id);
                }
                catch (RuntimeException _) {
                    continue;
                }
                if (snapshot.changelogManifestList().isEmpty()) {
                    continue;
                }
                if (!checkSize("I2: snapshot %s changelog manifest list".formatted(id), scan.manifestLocation(snapshot.changelogManifestList().get()), snapshot.changelogManifestListSize())) {
                    continue;
                }
                for (ManifestFileMeta manifest : scan.readManifestList(snapshot.changelogManifestList().get(), snapshot.changelogManifestListSize())) {
                    if (checkSize("I2: snapshot %s changelog manifest".formatted(id), scan.manifestLocation(manifest.fileName()), OptionalLong.of(manifest.fileSize()))) {
                        for (ManifestEntry entry : scan.readManifest(manifest)) {
                            checkSize("I2: snapshot %s changelog file".formatted(id), fileLocation(latestSchema, entry), OptionalLong.of(entry.file().fileSize()));
                        }
                    }
                }
            }
        }

        // I4 for the latest snapshot
        if (latestSchema != null) {
            TableOptions options = TableOptions.fromSchema(table.toString(), latestSchema);
            TableSchema schema = latestSchema;
            List<DataField> partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).toList();
            for (ManifestEntry entry : live.values()) {
                String folder = PartitionPath.partitionPath(partitionFields, entry.partition(), options.partitionLegacyName(), options.partitionDefaultName()) + "bucket-" + entry.bucket();
                Location file = entry.file().externalPath().map(Location::of).orElseGet(() -> table.appendPath(folder).appendPath(entry.file().fileName()));
                checkSize("I4: live data file", file, OptionalLong.of(entry.file().fileSize()));
            }
        }
    }

    private Location fileLocation(TableSchema schema, ManifestEntry entry)
    {
        TableOptions options = TableOptions.fromSchema(table.toString(), schema);
        List<DataField> partitionFields = schema.partitionKeys().stream().map(name -> schema.field(name).orElseThrow()).toList();
        String folder = PartitionPath.partitionPath(partitionFields, entry.partition(), options.partitionLegacyName(), options.partitionDefaultName()) + "bucket-" + entry.bucket();
        return entry.file().externalPath().map(Location::of).orElseGet(() -> table.appendPath(folder).appendPath(entry.file().fileName()));
    }

    /** False, with a violation, when the file is missing or its size is not the expected one. */
    private boolean checkSize(String what, Location location, OptionalLong expectedSize)
    {
        try {
            var file = fileSystem.newInputFile(location);
            if (!file.exists()) {
                violations.add("%s %s does not exist".formatted(what, location));
                return false;
            }
            if (expectedSize.isPresent() && file.length() != expectedSize.getAsLong()) {
                violations.add("%s %s has %s bytes, %s recorded".formatted(what, location, file.length(), expectedSize.getAsLong()));
                return false;
            }
            return true;
        }
        catch (IOException e) {
            violations.add("%s %s cannot be checked: %s".formatted(what, location, e));
            return false;
        }
    }

    private List<String> fileNames(Location directory)
    {
        List<String> names = new ArrayList<>();
        try {
            FileIterator files = fileSystem.listFiles(directory);
            while (files.hasNext()) {
                FileEntry file = files.next();
                names.add(file.location().fileName());
            }
        }
        catch (IOException e) {
            violations.add("cannot list %s: %s".formatted(directory, e));
        }
        return names;
    }

    private Optional<String> readText(Location location)
    {
        try (var input = fileSystem.newInputFile(location).newStream()) {
            return Optional.of(new String(input.readAllBytes(), UTF_8));
        }
        catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            violations.add("cannot read %s: %s".formatted(location, e));
            return Optional.empty();
        }
    }
}
