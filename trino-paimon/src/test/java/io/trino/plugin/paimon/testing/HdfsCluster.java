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

import io.airlift.log.Level;
import io.airlift.log.Logging;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * A real HDFS in this JVM: one NameNode and one DataNode of Hadoop's own minicluster on 127.0.0.1, ephemeral ports,
 * started once for all the test classes of a JVM ({@link #shared()}) and stopped when the JVM exits, or started with
 * more server properties (Kerberos) by {@link #start(Map)} and closed by its caller.
 */
public final class HdfsCluster
        implements AutoCloseable
{
    private static HdfsCluster shared;

    private final Path baseDirectory;
    private final MiniDFSCluster cluster;

    private HdfsCluster(Path baseDirectory, MiniDFSCluster cluster)
    {
        this.baseDirectory = baseDirectory;
        this.cluster = cluster;
    }

    public static synchronized HdfsCluster shared()
    {
        if (shared == null) {
            shared = start(Map.of());
            HdfsCluster cluster = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
        }
        return shared;
    }

    /** A cluster of its own, whose servers also get these properties (over those below); the caller closes it. */
    public static HdfsCluster start(Map<String, String> serverProperties)
    {
        // the NameNode logs every call (audit) and every block: thousands of lines a test class
        Logging.initialize().setLevel("org.apache.hadoop", Level.WARN);
        try {
            Path baseDirectory = Files.createTempDirectory("hdfs-cluster");
            Configuration configuration = new Configuration();
            configuration.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDirectory.toString());
            configuration.set("dfs.namenode.rpc-address", "127.0.0.1:0");
            configuration.set("dfs.namenode.http-address", "127.0.0.1:0");
            configuration.set("dfs.datanode.address", "127.0.0.1:0");
            configuration.set("dfs.datanode.http.address", "127.0.0.1:0");
            configuration.set("dfs.datanode.ipc.address", "127.0.0.1:0");
            // the connector's user, and others it impersonates, may act for query users
            String user = System.getProperty("user.name");
            configuration.set("hadoop.proxyuser.%s.hosts".formatted(user), "*");
            configuration.set("hadoop.proxyuser.%s.groups".formatted(user), "*");
            configuration.set("hadoop.proxyuser.%s.users".formatted(user), "*");
            serverProperties.forEach(configuration::set);
            MiniDFSCluster cluster = new MiniDFSCluster.Builder(configuration)
                    .numDataNodes(1)
                    .format(true)
                    .build();
            cluster.waitActive();
            return new HdfsCluster(baseDirectory, cluster);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code hdfs://127.0.0.1:<port>} */
    public String uri()
    {
        return "hdfs://127.0.0.1:" + cluster.getNameNodePort();
    }

    /** A client configuration whose default file system is this cluster. */
    public Configuration clientConfiguration()
    {
        Configuration configuration = new Configuration();
        configuration.set("fs.defaultFS", uri());
        return configuration;
    }

    /** A client of the cluster, of Hadoop's shared cache: not to be closed. */
    public FileSystem fileSystem()
    {
        try {
            return FileSystem.get(URI.create(uri()), clientConfiguration());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public MiniDFSCluster cluster()
    {
        return cluster;
    }

    /** Writes a Hadoop configuration file with just these properties, as a cluster's core-site.xml would hold them. */
    public static Path writeConfigurationFile(Path file, Map<String, String> properties)
    {
        Configuration configuration = new Configuration(false);
        properties.forEach(configuration::set);
        try (OutputStream output = Files.newOutputStream(file)) {
            configuration.writeXml(output);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    @Override
    public void close()
    {
        try {
            cluster.shutdown();
        }
        finally {
            try {
                deleteRecursively(baseDirectory, ALLOW_INSECURE);
            }
            catch (IOException _) {
                // a temporary folder left behind
            }
        }
    }
}
