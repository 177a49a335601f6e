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
import io.trino.Session;
import io.trino.plugin.paimon.testing.HdfsCluster;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.spi.security.Identity;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HDFS with Kerberos against a real KDC (Hadoop's MiniKdc, Apache Kerby, on 127.0.0.1): the NameNode and DataNode
 * log in from a keytab, accept only Kerberos (RPC) and SASL-authenticated block transfer with block access tokens,
 * and the connector logs in as {@code trino} from its keytab ({@code hive.hdfs.authentication.type=KERBEROS}):
 * it reads what Paimon Java wrote as {@code trino}, writes rows Paimon Java reads back, with impersonation writes as
 * the query's user, and a keytab without the principal's key stops the catalog at startup.
 * <p>
 * Kerberos state is JVM-wide (Hadoop's UserGroupInformation, the {@code java.security.krb5.conf} property), so this
 * class runs in a JVM of its own (tag {@code kerberos}: the {@code hdfs-kerberos} surefire execution), away from the
 * other HDFS tests.
 */
@Tag("kerberos")
final class TestHdfsKerberos
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "secure";

    private java.nio.file.Path workDirectory;
    private MiniKdc kdc;
    private HdfsCluster cluster;
    private String realm;
    private File trinoKeytab;
    private File otherKeytab;
    private java.nio.file.Path coreSite;
    private java.nio.file.Path hdfsSite;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        workDirectory = Files.createTempDirectory("hdfs-kerberos");
        Properties kdcConfiguration = MiniKdc.createConf();
        kdcConfiguration.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
        kdc = new MiniKdc(kdcConfiguration, workDirectory.toFile());
        kdc.start();
        realm = kdc.getRealm();
        File serverKeytab = workDirectory.resolve("hdfs.keytab").toFile();
        kdc.createPrincipal(serverKeytab, "hdfs/localhost", "HTTP/localhost");
        trinoKeytab = workDirectory.resolve("trino.keytab").toFile();
        kdc.createPrincipal(trinoKeytab, "trino");
        otherKeytab = workDirectory.resolve("other.keytab").toFile();
        kdc.createPrincipal(otherKeytab, "other");

        Map<String, String> client = ImmutableMap.of(
                "hadoop.security.authentication", "kerberos",
                "dfs.namenode.kerberos.principal", "hdfs/localhost@" + realm,
                "dfs.data.transfer.protection", "authentication");
        Configuration security = new Configuration();
        client.forEach(security::set);
        UserGroupInformation.setConfiguration(security);
        cluster = HdfsCluster.start(ImmutableMap.<String, String>builder()
                .putAll(client)
                .put("dfs.namenode.keytab.file", serverKeytab.getPath())
                .put("dfs.datanode.kerberos.principal", "hdfs/localhost@" + realm)
                .put("dfs.datanode.keytab.file", serverKeytab.getPath())
                .put("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm)
                .put("dfs.web.authentication.kerberos.keytab", serverKeytab.getPath())
                .put("dfs.block.access.token.enable", "true")
                // SASL on the DataNode's unprivileged port instead of a root-started DataNode behind HTTPS
                .put("ignore.secure.ports.for.testing", "true")
                .put("dfs.permissions.enabled", "false")
                // the connector's principal may act for the query's user (impersonation)
                .put("hadoop.proxyuser.trino.hosts", "*")
                .put("hadoop.proxyuser.trino.users", "*")
                .put("hadoop.proxyuser.trino.groups", "*")
                .buildOrThrow());

        // the cluster's client files, as an administrator hands them out: no keytab, no server secret
        coreSite = HdfsCluster.writeConfigurationFile(workDirectory.resolve("core-site.xml"), ImmutableMap.of(
                "fs.defaultFS", cluster.uri(),
                "hadoop.security.authentication", "kerberos"));
        hdfsSite = HdfsCluster.writeConfigurationFile(workDirectory.resolve("hdfs-site.xml"), ImmutableMap.of(
                "dfs.namenode.kerberos.principal", "hdfs/localhost@" + realm,
                "dfs.data.transfer.protection", "authentication"));

        asTrino(() -> {
            try (PaimonJavaCatalog paimon = paimonJava()) {
                paimon.createDatabase(DATABASE);
                paimon.createTable(DATABASE, "from_paimon", Schema.newBuilder()
                        .column("id", DataTypes.INT().notNull())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "1")
                        .build());
                PaimonJavaCatalog.write(paimon.getTable(DATABASE, "from_paimon"), List.of(
                        GenericRow.of(1, BinaryString.fromString("one")),
                        GenericRow.of(2, BinaryString.fromString("two"))));
            }
            return null;
        });

        QueryRunner queryRunner = PaimonQueryRunner.create(catalog("trino@" + realm, trinoKeytab, false), DATABASE);
        try {
            queryRunner.createCatalog("impersonating", "paimon", catalog("trino@" + realm, trinoKeytab, true));
            return queryRunner;
        }
        catch (Throwable e) {
            queryRunner.close();
            throw e;
        }
    }

    private Map<String, String> catalog(String principal, File keytab, boolean impersonation)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.warehouse", warehouse())
                .put("fs.hadoop.enabled", "true")
                .put("hive.config.resources", coreSite + "," + hdfsSite)
                .put("hive.hdfs.authentication.type", "KERBEROS")
                .put("hive.hdfs.trino.principal", principal)
                .put("hive.hdfs.trino.keytab", keytab.getPath())
                .put("hive.hdfs.impersonation.enabled", String.valueOf(impersonation))
                .buildOrThrow();
    }

    private String warehouse()
    {
        return cluster.uri() + "/warehouse";
    }

    private Configuration clientConfiguration()
    {
        Configuration configuration = new Configuration();
        configuration.addResource(new Path(coreSite.toUri()));
        configuration.addResource(new Path(hdfsSite.toUri()));
        return configuration;
    }

    /** Paimon Java's catalog, to be used inside {@link #asTrino}. */
    private PaimonJavaCatalog paimonJava()
    {
        // Paimon Java 1.4 runs every file call as the JVM's login user (here the NameNode's) once its Kerberos options
        // are complete or absent; a principal without a keytab makes it keep the caller's user, trino's login
        return PaimonJavaCatalog.onHadoop(warehouse(), clientConfiguration(), Map.of("security.kerberos.login.principal", "trino@" + realm));
    }

    /** Runs the action as {@code trino}, logged in from its keytab, as a Paimon Java job with that keytab would. */
    private <T> T asTrino(PrivilegedExceptionAction<T> action)
            throws Exception
    {
        return UserGroupInformation.loginUserFromKeytabAndReturnUGI("trino@" + realm, trinoKeytab.getPath()).doAs(action);
    }

    @AfterAll
    void closeFixtures()
            throws Exception
    {
        try (HdfsCluster _ = cluster) {
            if (kdc != null) {
                kdc.stop();
            }
        }
        finally {
            UserGroupInformation.reset();
            deleteRecursively(workDirectory, ALLOW_INSECURE);
        }
    }

    @Test
    void readsAndWritesWithKerberos()
            throws Exception
    {
        assertThat(RowText.paimonText(computeActual("SELECT * FROM from_paimon"))).containsExactly("(1, one)", "(2, two)");

        assertUpdate("CREATE TABLE from_trino (id int, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertUpdate("INSERT INTO from_trino VALUES (1, 'a'), (2, 'b')", 2);
        assertUpdate("UPDATE from_trino SET v = 'B' WHERE id = 2", 1);
        List<String> expected = List.of("(1, a)", "(2, B)");
        assertThat(RowText.paimonText(computeActual("SELECT * FROM from_trino"))).isEqualTo(expected);
        assertThat(asTrino(() -> {
            try (PaimonJavaCatalog paimon = paimonJava()) {
                return RowText.paimonText(paimon.getTable(DATABASE, "from_trino"));
            }
        })).isEqualTo(expected);
        // the NameNode saw the Kerberos principal's user
        assertThat(owner("/warehouse/%s.db/from_trino/snapshot/snapshot-2".formatted(DATABASE))).isEqualTo("trino");
    }

    @Test
    void impersonationWritesAsTheQueryUser()
            throws Exception
    {
        Session alice = testSessionBuilder()
                .setIdentity(Identity.ofUser("alice"))
                .setCatalog("impersonating")
                .setSchema(DATABASE)
                .build();
        getQueryRunner().execute(alice, "CREATE TABLE by_alice (id int) WITH (primary_key = ARRAY['id'], bucket = 1)");
        getQueryRunner().execute(alice, "INSERT INTO by_alice VALUES 7");
        assertThat(RowText.paimonText(computeActual("SELECT * FROM by_alice"))).containsExactly("(7)");
        assertThat(owner("/warehouse/%s.db/by_alice/snapshot/snapshot-1".formatted(DATABASE))).isEqualTo("alice");
    }

    @Test
    void keytabWithoutThePrincipalIsAStartupError()
    {
        assertThatThrownBy(() -> getQueryRunner().createCatalog("wrong_keytab", "paimon", catalog("trino@" + realm, otherKeytab, false)))
                .hasMessageContaining("Kerberos login of trino@" + realm)
                .hasMessageContaining(otherKeytab.getPath());
    }

    private String owner(String path)
            throws Exception
    {
        return asTrino(() -> {
            try (FileSystem fileSystem = FileSystem.newInstance(URI.create(cluster.uri()), clientConfiguration())) {
                FileStatus status = fileSystem.getFileStatus(new Path(path));
                return status.getOwner();
            }
        });
    }
}
