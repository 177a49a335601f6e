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
package io.trino.plugin.paimon.table;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.filesystem.Location;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataPaths;
import io.trino.plugin.paimon.format.manifest.DataFileMeta;
import io.trino.plugin.paimon.format.row.BinaryRow;
import io.trino.plugin.paimon.format.row.PartitionPath;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.TableSchema;
import io.trino.plugin.paimon.format.schema.TableSchemaJson;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * A Paimon table as a query reads it, resolved once when the query's table handle is made: its name, its folder,
 * the schema version being read, its typed options, and the fields that partition and key its rows. It travels to
 * the workers inside the table handle as the schema's JSON and is resolved again from that, once per task, so
 * neither the split manager nor the page sources read the schema file of the version being read.
 * <p>
 * A table read on one of its branches keeps its snapshots, schemas and tags under its branch's folder
 * ({@code <table>/branch/branch-<name>/}, the {@link #metadataLocation()}), while the data, manifest, index and
 * statistics files the branch's snapshots name stay under the table's own folder, as Paimon lays branches out.
 */
public final class PaimonTable
{
    public static final String BRANCH_DIRECTORY = "branch";
    public static final String BRANCH_FOLDER_PREFIX = "branch-";

    private final SchemaTableName name;
    private final Location location;
    private final Optional<String> branch;
    private final Location metadataLocation;
    private final TableSchema schema;
    private final TableOptions options;
    private final List<DataField> partitionFields;
    private final List<DataField> trimmedPrimaryKeyFields;

    /**
     * @throws TrinoException {@code PAIMON_INVALID_TABLE_OPTION} naming the table and option when an option has a
     * value Paimon would reject
     */
    public PaimonTable(SchemaTableName name, Location location, TableSchema schema)
    {
        this(name, location, Optional.empty(), schema);
    }

    /**
     * @param branch the branch read, empty for the main branch
     */
    public PaimonTable(SchemaTableName name, Location location, Optional<String> branch, TableSchema schema)
    {
        this.name = requireNonNull(name, "name is null");
        this.location = requireNonNull(location, "location is null");
        this.branch = requireNonNull(branch, "branch is null");
        this.metadataLocation = branchLocation(location, branch);
        this.schema = requireNonNull(schema, "schema is null");
        this.options = TableOptions.fromSchema(name.toString(), schema);
        this.partitionFields = schema.partitionFields();
        this.trimmedPrimaryKeyFields = schema.trimmedPrimaryKeyFields();
    }

    @JsonCreator
    public static PaimonTable fromJson(
            @JsonProperty("name") SchemaTableName name,
            @JsonProperty("location") String location,
            @JsonProperty("branch") Optional<String> branch,
            @JsonProperty("schema") String schemaJson)
    {
        TableSchema schema;
        try {
            schema = TableSchemaJson.parse(schemaJson.getBytes(UTF_8));
        }
        catch (InvalidMetadataException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Invalid schema of table %s in its table handle: %s".formatted(name, e.getMessage()), e);
        }
        return new PaimonTable(name, Location.of(location), branch, schema);
    }

    /** The folder of a branch's snapshots, schemas and tags; the table's own folder for the main branch. */
    public static Location branchLocation(Location tableLocation, Optional<String> branch)
    {
        return branch.map(name -> tableLocation.appendPath(BRANCH_DIRECTORY + "/" + BRANCH_FOLDER_PREFIX + name)).orElse(tableLocation);
    }

    @JsonProperty("name")
    public SchemaTableName name()
    {
        return name;
    }

    /** The table as a user names it in SQL: {@code schema.table}, or {@code schema.table$branch_<name>} on a branch. */
    public String displayName()
    {
        return name + branch.map(value -> "$branch_" + value).orElse("");
    }

    public Location location()
    {
        return location;
    }

    @JsonProperty("location")
    public String locationText()
    {
        return location.toString();
    }

    /** The branch read, empty for the main branch. */
    @JsonProperty("branch")
    public Optional<String> branch()
    {
        return branch;
    }

    /** Where the snapshots, schemas and tags of the branch read lie: the table's folder for the main branch. */
    public Location metadataLocation()
    {
        return metadataLocation;
    }

    public TableSchema schema()
    {
        return schema;
    }

    // the schema file's own encoding, so a worker resolves exactly the schema the coordinator read
    @JsonProperty("schema")
    public String schemaJson()
    {
        return new String(TableSchemaJson.toJson(schema), UTF_8);
    }

    public TableOptions options()
    {
        return options;
    }

    public boolean hasPrimaryKey()
    {
        return !schema.primaryKeys().isEmpty();
    }

    public List<DataField> partitionFields()
    {
        return partitionFields;
    }

    /** The key of the records in a bucket: the primary key without the partition keys; empty for append tables. */
    public List<DataField> trimmedPrimaryKeyFields()
    {
        return trimmedPrimaryKeyFields;
    }

    /** The folder of a partition relative to the table folder, {@code k1=v1/k2=v2/}; empty for unpartitioned tables. */
    public String partitionPath(BinaryRow partition)
    {
        return PartitionPath.partitionPath(partitionFields, partition, options.partitionLegacyName(), options.partitionDefaultName());
    }

    /** The partition's values as texts, as its folder names them (unescaped); empty for unpartitioned tables. */
    public List<String> partitionValues(BinaryRow partition)
    {
        return PartitionPath.partitionValues(partitionFields, partition, options.partitionLegacyName(), options.partitionDefaultName());
    }

    /** The folder of a bucket's data files, {@code <table>/<partition path>bucket-<N>} (paimon-format.md §1). */
    public Location bucketLocation(String partitionPath, int bucket)
    {
        return location.appendPath(options.bucketPath(partitionPath, bucket));
    }

    /** The folder that holds the partition and bucket folders: the table's, or {@code data-file.path-directory} in it. */
    public Location dataLocation()
    {
        return options.dataFileDirectory().map(location::appendPath).orElse(location);
    }

    /**
     * Where a data file a manifest names lies: under its external path when it has one, else in its bucket folder.
     * Either way it must stay inside the table's location or an external root of its options.
     */
    public Location dataFileLocation(String partitionPath, int bucket, DataFileMeta file)
    {
        if (file.externalPath().isPresent()) {
            return externalFile(file.externalPath().get(), "data file");
        }
        return MetadataPaths.child(bucketLocation(partitionPath, bucket), file.fileName(), "data file");
    }

    /** A file a manifest names by absolute path, checked to lie inside the table or an external root of its options. */
    public Location externalFile(String path, String kind)
    {
        List<Location> roots = new ArrayList<>();
        roots.add(location);
        options.dataFileExternalPaths().forEach(root -> roots.add(Location.of(root)));
        return MetadataPaths.absolute(path, roots, kind);
    }

    public Location bucketLocation(BinaryRow partition, int bucket)
    {
        return bucketLocation(partitionPath(partition), bucket);
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof PaimonTable other
                && name.equals(other.name)
                && location.equals(other.location)
                && branch.equals(other.branch)
                && schema.equals(other.schema);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(name, location, branch, schema);
    }

    @Override
    public String toString()
    {
        return displayName() + "@schema-" + schema.id();
    }
}
