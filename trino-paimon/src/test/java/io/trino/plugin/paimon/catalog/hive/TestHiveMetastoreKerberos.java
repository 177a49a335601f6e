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
package io.trino.plugin.paimon.catalog.hive;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.paimon.testing.HiveMetastoreServer;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.RowText;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.apache.hadoop.minikdc.MiniKdc;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Catalog type {@code hive_metastore} against a real Hive Metastore 4.0.1 that accepts only Kerberos (SASL), with a
 * real KDC (Hadoop's MiniKdc on 127.0.0.1): the connector logs in as {@code trino} from its keytab
 * ({@code hive.metastore.authentication.type=KERBEROS}, the same keys as Trino's Hive connector), creates, writes and
 * reads tables the metastore registers, and Paimon Java reads the table's files back; a catalog without Kerberos, or
 * with a keytab lacking the principal's key, fails with the metastore named.
 * <p>
 * Kerberos state is JVM-wide (the {@code java.security.krb5.conf} property the KDC sets), so this class runs in the
 * JVM of the {@code kerberos} tag.
 */
@Tag("kerberos")
final class TestHiveMetastoreKerberos
        extends AbstractTestQueryFramework
{
    private static final String DATABASE = "secure";

    private Path root;
    private Path warehouse;
    private MiniKdc kdc;
    private String realm;
    private File trinoKeytab;
    private File otherKeytab;
    private HiveMetastoreServer metastore;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        root = Files.createTempDirectory("hive-metastore-kerberos");
        warehouse = Files.createDirectories(root.resolve("warehouse"));
        Properties kdcConfiguration = MiniKdc.createConf();
        kdcConfiguration.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
        kdc = new MiniKdc(kdcConfiguration, Files.createDirectories(root.resolve("kdc")).toFile());
        kdc.start();
        realm = kdc.getRealm();
        File metastoreKeytab = root.resolve("hive.keytab").toFile();
        kdc.createPrincipal(metastoreKeytab, "hive/localhost");
        trinoKeytab = root.resolve("trino.keytab").toFile();
        kdc.createPrincipal(trinoKeytab, "trino");
        otherKeytab = root.resolve("other.keytab").toFile();
        kdc.createPrincipal(otherKeytab, "other");

        metastore = HiveMetastoreServer.start(
                warehouse,
                List.of(
                        "-Djava.security.krb5.conf=" + kdc.getKrb5conf().getAbsolutePath(),
                        "-Dmetastore.sasl.enabled=true",
                        "-Dmetastore.kerberos.principal=hive/localhost@" + realm,
                        "-Dmetastore.kerberos.keytab.file=" + metastoreKeytab.getAbsolutePath()),
                Map.of("hadoop.security.authentication", "kerberos"));
        return PaimonQueryRunner.create(catalog(ImmutableMap.of(
                "hive.metastore.authentication.type", "KERBEROS",
                "hive.metastore.service.principal", "hive/localhost@" + realm,
                "hive.metastore.client.principal", "trino@" + realm,
                "hive.metastore.client.keytab", trinoKeytab.getAbsolutePath())), DATABASE);
    }

    private Map<String, String> catalog(Map<String, String> authentication)
    {
        return ImmutableMap.<String, String>builder()
                .put("paimon.catalog.type", "hive_metastore")
                .put("hive.metastore.uri", metastore.uri())
                .put("paimon.warehouse", warehouse.toUri().toString())
                .put("fs.native-local.enabled", "true")
                .put("local.location", "/")
                // a refused connection is not worth retrying: fail the query at once
                .put("hive.metastore.thrift.client.max-retries", "0")
                .putAll(authentication)
                .buildOrThrow();
    }

    @AfterAll
    void closeFixtures()
            throws Exception
    {
        try (HiveMetastoreServer _ = metastore) {
            if (kdc != null) {
                kdc.stop();
            }
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    @Test
    void createsWritesAndReadsThroughAKerberosMetastore()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS " + DATABASE);
        assertUpdate("CREATE TABLE orders (id bigint, item varchar) WITH (primary_key = ARRAY['id'], bucket = 2)");
        assertUpdate("INSERT INTO orders VALUES (1, 'apple'), (2, 'pear'), (3, 'plum')", 3);
        assertUpdate("UPDATE orders SET item = 'PEAR' WHERE id = 2", 1);
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).contains("orders");
        List<String> expected = List.of("(1, apple)", "(2, PEAR)", "(3, plum)");
        assertThat(RowText.paimonText(computeActual("SELECT * FROM orders ORDER BY id"))).isEqualTo(expected);
        // the table's files, as Paimon Java reads them from the warehouse folder the metastore points at
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(warehouse)) {
            assertThat(RowText.paimonText(paimon.getTable(DATABASE, "orders"))).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void catalogWithoutKerberosIsRefusedByTheMetastore()
            throws Exception
    {
        getQueryRunner().createCatalog("plain", "paimon", catalog(ImmutableMap.of()));
        assertThat(catchQueryFailure("SHOW SCHEMAS FROM plain"))
                .hasMessageContaining("Catalog 'plain': the Hive metastore failed to list databases")
                .hasMessageNotContaining("Kerberos");
    }

    @Test
    void keytabWithoutThePrincipalsKeyFails()
            throws Exception
    {
        getQueryRunner().createCatalog("wrong_keytab", "paimon", catalog(ImmutableMap.of(
                "hive.metastore.authentication.type", "KERBEROS",
                "hive.metastore.service.principal", "hive/localhost@" + realm,
                "hive.metastore.client.principal", "trino@" + realm,
                "hive.metastore.client.keytab", otherKeytab.getAbsolutePath())));
        assertThat(catchQueryFailure("SHOW SCHEMAS FROM wrong_keytab"))
                .hasMessageContaining("Catalog 'wrong_keytab': the Hive metastore failed to list databases: the Kerberos login failed (check hive.metastore.client.principal and hive.metastore.client.keytab)");
    }

    private Throwable catchQueryFailure(String sql)
    {
        try {
            computeActual(sql);
        }
        catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("expected the query to fail: " + sql);
    }
}
