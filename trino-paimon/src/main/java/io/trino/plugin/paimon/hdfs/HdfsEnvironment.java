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

import com.google.common.collect.ImmutableSet;
import io.trino.spi.TrinoException;
import io.trino.spi.security.ConnectorIdentity;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_UNSUPPORTED_CONFIGURATION;
import static java.util.Objects.requireNonNull;

/**
 * A catalog's Hadoop client configuration (Hadoop's defaults, then the files of {@code hive.config.resources} in
 * order) and the user the connector reaches HDFS as: its Kerberos login, or the process's user, and with
 * impersonation a proxy user per query user.
 */
public final class HdfsEnvironment
{
    // fs.<scheme>.impl: a scheme the user's configuration maps to a Hadoop file system
    private static final Pattern SCHEME_MAPPING = Pattern.compile("fs\\.([a-zA-Z][a-zA-Z0-9+-]*)\\.impl");

    private final Configuration configuration;
    private final Set<String> mappedSchemes;
    private final Optional<UserGroupInformation> kerberosLogin;
    private final boolean impersonation;

    private HdfsEnvironment(Configuration configuration, Set<String> mappedSchemes, Optional<UserGroupInformation> kerberosLogin, boolean impersonation)
    {
        this.configuration = requireNonNull(configuration, "configuration is null");
        this.mappedSchemes = ImmutableSet.copyOf(mappedSchemes);
        this.kerberosLogin = requireNonNull(kerberosLogin, "kerberosLogin is null");
        this.impersonation = impersonation;
    }

    /**
     * Reads the configuration files and logs in, so that a missing or malformed file, or a failed Kerberos login,
     * stops the catalog at startup with the file or principal named.
     */
    public static HdfsEnvironment create(HdfsConfig config)
    {
        Configuration configuration = new Configuration();
        // Hadoop loads file systems and codecs by class name through this loader: the plugin's, not the caller's
        configuration.setClassLoader(HdfsEnvironment.class.getClassLoader());
        ImmutableSet.Builder<String> mappedSchemes = ImmutableSet.builder();
        for (String resource : config.getResources()) {
            Configuration file = readResource(resource);
            for (Map.Entry<String, String> entry : file) {
                configuration.set(entry.getKey(), entry.getValue(), resource);
                Matcher matcher = SCHEME_MAPPING.matcher(entry.getKey());
                if (matcher.matches()) {
                    mappedSchemes.add(matcher.group(1));
                }
            }
        }

        Optional<UserGroupInformation> kerberosLogin = Optional.empty();
        if (config.getAuthenticationType() == HdfsConfig.AuthenticationType.KERBEROS) {
            configuration.set("hadoop.security.authentication", "kerberos");
            String principal = config.getPrincipal().orElseThrow(() -> new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.hdfs.authentication.type=KERBEROS needs hive.hdfs.trino.principal"));
            String keytab = config.getKeytab().orElseThrow(() -> new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.hdfs.authentication.type=KERBEROS needs hive.hdfs.trino.keytab"));
            if (!Files.isReadable(Path.of(keytab))) {
                throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.hdfs.trino.keytab: keytab file %s does not exist or cannot be read".formatted(keytab));
            }
            // UserGroupInformation keeps its configuration per class loader: every Kerberos catalog of this plugin shares it
            UserGroupInformation.setConfiguration(configuration);
            try {
                kerberosLogin = Optional.of(UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab));
            }
            catch (IOException | RuntimeException e) {
                throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.hdfs.trino.principal: Kerberos login of %s with keytab %s failed: %s".formatted(principal, keytab, e.getMessage()), e);
            }
        }
        return new HdfsEnvironment(configuration, mappedSchemes.build(), kerberosLogin, config.isImpersonationEnabled());
    }

    private static Configuration readResource(String resource)
    {
        Path file = Path.of(resource);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.config.resources: Hadoop configuration file %s does not exist or cannot be read".formatted(resource));
        }
        Configuration configuration = new Configuration(false);
        try {
            configuration.addResource(Files.newInputStream(file), resource);
            // parsed lazily: force it here, where a malformed file can still be named
            configuration.size();
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "hive.config.resources: Hadoop configuration file %s cannot be read: %s".formatted(resource, e.getMessage()), e);
        }
        return configuration;
    }

    public Configuration configuration()
    {
        return configuration;
    }

    /** Schemes the configuration files map to a file system class ({@code fs.<scheme>.impl}). */
    public Set<String> mappedSchemes()
    {
        return mappedSchemes;
    }

    /** The user HDFS sees for a query of this identity. */
    public UserGroupInformation user(ConnectorIdentity identity)
    {
        UserGroupInformation login = login();
        if (impersonation) {
            return UserGroupInformation.createProxyUser(identity.getUser(), login);
        }
        return login;
    }

    private UserGroupInformation login()
    {
        if (kerberosLogin.isPresent()) {
            UserGroupInformation login = kerberosLogin.get();
            try {
                login.checkTGTAndReloginFromKeytab();
            }
            catch (IOException e) {
                throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "Kerberos login of %s could not be renewed: %s".formatted(login.getUserName(), e.getMessage()), e);
            }
            return login;
        }
        try {
            return UserGroupInformation.getCurrentUser();
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_UNSUPPORTED_CONFIGURATION, "The Hadoop client cannot determine the user to reach HDFS as: " + e.getMessage(), e);
        }
    }

    /** The schemes beside those named by the configuration that the Hadoop client serves here. */
    public static List<String> builtInSchemes()
    {
        return List.of("hdfs", "viewfs");
    }
}
