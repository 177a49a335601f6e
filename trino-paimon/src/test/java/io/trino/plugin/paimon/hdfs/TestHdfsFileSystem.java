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
package io.trino.plugin.paimon.hdfs;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.bootstrap.LifeCycleManager;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Trino's file-system contract over Hadoop's client, against a real HDFS ({@link HdfsCluster}): exclusive creates,
 * positional reads, listings spelled as the caller spelled the folder, deletes and renames in HDFS's semantics, the
 * same through a {@code viewfs://} mount, and impersonation.
 */
@TestInstance(PER_CLASS)
final class TestHdfsFileSystem
{
    private HdfsCluster cluster;
    private java.nio.file.Path configDirectory;
    private HdfsFileSystemFactory factory;
    private HdfsFileSystemFactory impersonating;
    private TrinoFileSystem fileSystem;

    @BeforeAll
    void start()
            throws IOException
    {
        cluster = HdfsCluster.shared();
        configDirectory = Files.createTempDirectory("hdfs-config");
        java.nio.file.Path coreSite = HdfsCluster.writeConfigurationFile(configDirectory.resolve("core-site.xml"), ImmutableMap.of(
                "fs.defaultFS", cluster.uri(),
                "fs.viewfs.mounttable.lake.link./data", cluster.uri() + "/viewfs-target"));
        factory = new HdfsFileSystemFactory(HdfsEnvironment.create(new HdfsConfig().setResources(coreSite.toString())));
        impersonating = new HdfsFileSystemFactory(HdfsEnvironment.create(new HdfsConfig().setResources(coreSite.toString()).setImpersonationEnabled(true)));
        fileSystem = factory.create(ConnectorIdentity.ofUser("test"));
    }

    @AfterAll
    void stop()
            throws IOException
    {
        factory.close();
        impersonating.close();
        deleteRecursively(configDirectory, ALLOW_INSECURE);
    }

    private Location newFolder()
    {
        return Location.of(cluster.uri() + "/fs-test/" + UUID.randomUUID());
    }

    @Test
    void createFailsWhenTheFileExists()
            throws IOException
    {
        Location file = newFolder().appendPath("data.bin");
        try (OutputStream output = fileSystem.newOutputFile(file).create()) {
            output.write(new byte[] {1, 2, 3});
        }
        assertThatThrownBy(() -> fileSystem.newOutputFile(file).create().close())
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(file.toString());
        assertThat(read(file)).containsExactly(1, 2, 3);

        fileSystem.newOutputFile(file).createOrOverwrite(new byte[] {4});
        assertThat(read(file)).containsExactly(4);
    }

    @Test
    void createExclusiveRefusesAnExistingFileAndLeavesNoTemporaryFile()
            throws IOException
    {
        Location folder = newFolder();
        Location snapshot = folder.appendPath("snapshot-1");
        fileSystem.newOutputFile(snapshot).createExclusive("first".getBytes(UTF_8));
        assertThatThrownBy(() -> fileSystem.newOutputFile(snapshot).createExclusive("second".getBytes(UTF_8)))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(new String(read(snapshot), UTF_8)).isEqualTo("first");
        assertThat(list(folder)).containsExactly(snapshot.toString());
    }

    /** Writers racing to publish one file: HDFS's rename, refused atomically when the target exists, lets exactly one win. */
    @Test
    void racingExclusiveCreatesPublishExactlyOne()
            throws Exception
    {
        Location folder = newFolder();
        Location snapshot = folder.appendPath("snapshot-7");
        int writers = 8;
        ExecutorService executor = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Boolean>> outcomes = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                byte[] content = ("writer " + writer).getBytes(UTF_8);
                outcomes.add(executor.submit((Callable<Boolean>) () -> {
                    try {
                        fileSystem.newOutputFile(snapshot).createExclusive(content);
                        return true;
                    }
                    catch (FileAlreadyExistsException e) {
                        return false;
                    }
                }));
            }
            List<Integer> winners = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                if (outcomes.get(writer).get()) {
                    winners.add(writer);
                }
            }
            assertThat(winners).hasSize(1);
            assertThat(new String(read(snapshot), UTF_8)).isEqualTo("writer " + winners.getFirst());
            assertThat(list(folder)).containsExactly(snapshot.toString());
        }
        finally {
            executor.shutdownNow();
        }
    }

    @Test
    void readsAtPositionsAndStreams()
            throws IOException
    {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new Random(29).nextBytes(content);
        Location file = newFolder().appendPath("large.bin");
        fileSystem.newOutputFile(file).createOrOverwrite(content);

        TrinoInputFile inputFile = fileSystem.newInputFile(file);
        assertThat(inputFile.exists()).isTrue();
        assertThat(inputFile.length()).isEqualTo(content.length);
        FileStatus status = cluster.fileSystem().getFileStatus(new Path(file.toString()));
        assertThat(inputFile.lastModified().toEpochMilli()).isEqualTo(status.getModificationTime());
        try (TrinoInput input = inputFile.newInput()) {
            byte[] buffer = new byte[1000];
            input.readFully(2 * 1024 * 1024 - 500, buffer, 0, buffer.length);
            assertThat(buffer).isEqualTo(Arrays.copyOfRange(content, 2 * 1024 * 1024 - 500, 2 * 1024 * 1024 + 500));
            input.readFully(10, buffer, 0, 100);
            assertThat(Arrays.copyOf(buffer, 100)).isEqualTo(Arrays.copyOfRange(content, 10, 110));
            byte[] tail = new byte[64];
            assertThat(input.readTail(tail, 0, tail.length)).isEqualTo(64);
            assertThat(tail).isEqualTo(Arrays.copyOfRange(content, content.length - 64, content.length));
            assertThatThrownBy(() -> input.readFully(content.length - 10, new byte[20], 0, 20))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString());
        }
        try (TrinoInputStream stream = inputFile.newStream()) {
            stream.seek(1_000_000);
            assertThat(stream.getPosition()).isEqualTo(1_000_000);
            assertThat(stream.readNBytes(10)).isEqualTo(Arrays.copyOfRange(content, 1_000_000, 1_000_010));
            assertThat(stream.getPosition()).isEqualTo(1_000_010);
        }

        Location missing = file.sibling("missing.bin");
        assertThat(fileSystem.newInputFile(missing).exists()).isFalse();
        assertThatThrownBy(() -> fileSystem.newInputFile(missing).newStream())
                .isInstanceOf(java.io.FileNotFoundException.class)
                .hasMessageContaining(missing.toString());
        assertThatThrownBy(() -> fileSystem.newInputFile(missing).length())
                .isInstanceOf(java.io.FileNotFoundException.class);
    }

    @Test
    void listsDeletesAndRenamesAsAHierarchicalFileSystem()
            throws IOException
    {
        Location folder = newFolder();
        for (String name : List.of("a/1.bin", "a/b/2.bin", "c/3.bin", "4.bin")) {
            fileSystem.newOutputFile(folder.appendPath(name)).createOrOverwrite(new byte[] {7});
        }
        fileSystem.createDirectory(folder.appendPath("empty"));

        assertThat(list(folder)).containsExactlyInAnyOrder(
                folder.appendPath("a/1.bin").toString(),
                folder.appendPath("a/b/2.bin").toString(),
                folder.appendPath("c/3.bin").toString(),
                folder.appendPath("4.bin").toString());
        assertThat(list(folder.appendPath("nothing"))).isEmpty();
        assertThat(fileSystem.listDirectories(folder)).extracting(Location::toString).containsExactlyInAnyOrder(
                folder.appendPath("a").toString() + "/",
                folder.appendPath("c").toString() + "/",
                folder.appendPath("empty").toString() + "/");
        assertThat(fileSystem.listDirectories(folder.appendPath("nothing"))).isEmpty();
        assertThat(fileSystem.directoryExists(folder.appendPath("empty"))).hasValue(true);
        assertThat(fileSystem.directoryExists(folder.appendPath("4.bin"))).hasValue(false);
        assertThat(fileSystem.directoryExists(folder.appendPath("nothing"))).hasValue(false);

        // deletes: a missing file is no error, a directory is not a file
        fileSystem.deleteFile(folder.appendPath("missing.bin"));
        assertThatThrownBy(() -> fileSystem.deleteFile(folder.appendPath("empty"))).isInstanceOf(IOException.class);
        fileSystem.deleteFile(folder.appendPath("4.bin"));
        assertThat(fileSystem.newInputFile(folder.appendPath("4.bin")).exists()).isFalse();

        // renames never replace their target, and the source stays when refused
        assertThatThrownBy(() -> fileSystem.renameFile(folder.appendPath("a/1.bin"), folder.appendPath("c/3.bin")))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> fileSystem.renameFile(folder.appendPath("a/1.bin"), folder.appendPath("c")))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(fileSystem.newInputFile(folder.appendPath("a/1.bin")).exists()).isTrue();
        fileSystem.renameFile(folder.appendPath("a/1.bin"), folder.appendPath("d/new/1.bin"));
        assertThat(fileSystem.newInputFile(folder.appendPath("d/new/1.bin")).exists()).isTrue();
        assertThatThrownBy(() -> fileSystem.renameDirectory(folder.appendPath("a"), folder.appendPath("c")))
                .isInstanceOf(FileAlreadyExistsException.class);
        fileSystem.renameDirectory(folder.appendPath("a"), folder.appendPath("e"));
        assertThat(list(folder.appendPath("e"))).containsExactly(folder.appendPath("e/b/2.bin").toString());

        fileSystem.deleteDirectory(folder.appendPath("e"));
        fileSystem.deleteDirectory(folder.appendPath("nothing"));
        assertThatThrownBy(() -> fileSystem.deleteDirectory(folder.appendPath("c/3.bin"))).isInstanceOf(IOException.class);
        assertThat(list(folder)).containsExactlyInAnyOrder(folder.appendPath("c/3.bin").toString(), folder.appendPath("d/new/1.bin").toString());
    }

    @Test
    void viewfsMountReachesTheSameClusterAndPublishesExclusively()
            throws IOException
    {
        String name = UUID.randomUUID().toString();
        Location folder = Location.of("viewfs://lake/data/" + name);
        Location snapshot = folder.appendPath("snapshot/snapshot-1");
        fileSystem.newOutputFile(snapshot).createExclusive("viewfs".getBytes(UTF_8));
        assertThatThrownBy(() -> fileSystem.newOutputFile(snapshot).createExclusive("again".getBytes(UTF_8)))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(list(folder)).containsExactly(snapshot.toString());
        // the mount's target on the cluster holds the file
        Location target = Location.of(cluster.uri() + "/viewfs-target/" + name + "/snapshot/snapshot-1");
        assertThat(new String(read(target), UTF_8)).isEqualTo("viewfs");
    }

    @Test
    void impersonationWritesAsTheQueryUser()
            throws IOException
    {
        Location folder = newFolder();
        fileSystem.createDirectory(folder);
        TrinoFileSystem asAlice = impersonating.create(ConnectorIdentity.ofUser("alice"));
        Location file = folder.appendPath("owned.bin");
        // HDFS checks alice's permissions, not the connector's: the folder is the connector's user's, not writable by others
        assertThatThrownBy(() -> asAlice.newOutputFile(file).createOrOverwrite(new byte[] {1}))
                .isInstanceOf(AccessControlException.class)
                .hasMessageContaining("user=alice");
        cluster.fileSystem().setPermission(new Path(folder.toString()), new FsPermission((short) 0777));
        asAlice.newOutputFile(file).createOrOverwrite(new byte[] {1});
        assertThat(cluster.fileSystem().getFileStatus(new Path(file.toString())).getOwner()).isEqualTo("alice");

        Location own = folder.appendPath("own.bin");
        fileSystem.newOutputFile(own).createOrOverwrite(new byte[] {1});
        assertThat(cluster.fileSystem().getFileStatus(new Path(own.toString())).getOwner()).isEqualTo(System.getProperty("user.name"));
    }

    @Test
    void closedFactoryRefusesFurtherCalls()
            throws Exception
    {
        java.nio.file.Path coreSite = HdfsCluster.writeConfigurationFile(configDirectory.resolve("closing-site.xml"), ImmutableMap.of("fs.defaultFS", cluster.uri()));
        HdfsFileSystemFactory closing = new HdfsFileSystemFactory(HdfsEnvironment.create(new HdfsConfig().setResources(coreSite.toString())));
        TrinoFileSystem closingFileSystem = closing.create(ConnectorIdentity.ofUser("test"));
        Location file = newFolder().appendPath("f.bin");
        closingFileSystem.newOutputFile(file).createOrOverwrite(new byte[] {1});
        closing.close();
        assertThatThrownBy(() -> closingFileSystem.newInputFile(file).exists())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("shut down");
    }

    /**
     * The module registers the Hadoop file system for hdfs, viewfs and the schemes the configuration maps, but not
     * for a native file system's scheme, and the catalog's shutdown closes the Hadoop file systems it opened.
     */
    @Test
    void moduleRegistersSchemesAndShutdownClosesFileSystems()
            throws Exception
    {
        java.nio.file.Path coreSite = HdfsCluster.writeConfigurationFile(configDirectory.resolve("module-site.xml"), ImmutableMap.of(
                "fs.defaultFS", cluster.uri(),
                "fs.lake.impl", "org.apache.hadoop.hdfs.DistributedFileSystem",
                "fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem"));
        Injector injector = new Bootstrap(new HdfsModule())
                .doNotInitializeLogging()
                .setRequiredConfigurationProperties(ImmutableMap.of("hive.config.resources", coreSite.toString()))
                .initialize();
        Map<String, TrinoFileSystemFactory> factories = injector.getInstance(Key.get(new TypeLiteral<Map<String, TrinoFileSystemFactory>>() {}));
        assertThat(factories.keySet()).containsExactlyInAnyOrder("hdfs", "viewfs", "lake");

        TrinoFileSystem moduleFileSystem = factories.get("hdfs").create(ConnectorIdentity.ofUser("test"));
        Location file = newFolder().appendPath("f.bin");
        moduleFileSystem.newOutputFile(file).createOrOverwrite(new byte[] {1});
        assertThat(moduleFileSystem.newInputFile(file).exists()).isTrue();
        injector.getInstance(LifeCycleManager.class).stop();
        assertThatThrownBy(() -> moduleFileSystem.newInputFile(file).exists())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("shut down");
    }

    private byte[] read(Location location)
            throws IOException
    {
        try (TrinoInputStream stream = fileSystem.newInputFile(location).newStream()) {
            return stream.readAllBytes();
        }
    }

    private List<String> list(Location folder)
            throws IOException
    {
        List<String> files = new ArrayList<>();
        FileIterator iterator = fileSystem.listFiles(folder);
        while (iterator.hasNext()) {
            FileEntry entry = iterator.next();
            files.add(entry.location().toString());
        }
        return files;
    }
}
