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

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import java.util.List;
import java.util.Optional;

/**
 * The Hadoop client's configuration of a catalog with {@code fs.hadoop.enabled=true}, under the property names of
 * Trino's Hive connector, so that a catalog file written for it works here unchanged.
 */
public class HdfsConfig
{
    public enum AuthenticationType
    {
        NONE,
        KERBEROS,
    }

    private List<String> resources = ImmutableList.of();
    private AuthenticationType authenticationType = AuthenticationType.NONE;
    private String principal;
    private String keytab;
    private boolean impersonationEnabled;

    @NotNull
    public List<String> getResources()
    {
        return resources;
    }

    @Config("hive.config.resources")
    @ConfigDescription("Comma-separated Hadoop configuration files (core-site.xml, hdfs-site.xml) of the cluster")
    public HdfsConfig setResources(String resources)
    {
        this.resources = resources == null ? ImmutableList.of() : Splitter.on(',').trimResults().omitEmptyStrings().splitToList(resources);
        return this;
    }

    @NotNull
    public AuthenticationType getAuthenticationType()
    {
        return authenticationType;
    }

    @Config("hive.hdfs.authentication.type")
    @ConfigDescription("How the connector authenticates to HDFS: NONE (the process's user, or HADOOP_USER_NAME) or KERBEROS")
    public HdfsConfig setAuthenticationType(AuthenticationType authenticationType)
    {
        this.authenticationType = authenticationType;
        return this;
    }

    public Optional<String> getPrincipal()
    {
        return Optional.ofNullable(principal);
    }

    @Config("hive.hdfs.trino.principal")
    @ConfigDescription("Kerberos principal the connector logs in as")
    public HdfsConfig setPrincipal(String principal)
    {
        this.principal = principal;
        return this;
    }

    public Optional<String> getKeytab()
    {
        return Optional.ofNullable(keytab);
    }

    @Config("hive.hdfs.trino.keytab")
    @ConfigDescription("Keytab file of the Kerberos principal")
    public HdfsConfig setKeytab(String keytab)
    {
        this.keytab = keytab;
        return this;
    }

    public boolean isImpersonationEnabled()
    {
        return impersonationEnabled;
    }

    @Config("hive.hdfs.impersonation.enabled")
    @ConfigDescription("Reach HDFS as the query's user, through a proxy user of the connector's own")
    public HdfsConfig setImpersonationEnabled(boolean impersonationEnabled)
    {
        this.impersonationEnabled = impersonationEnabled;
        return this;
    }

    @AssertTrue(message = "hive.hdfs.authentication.type=KERBEROS needs hive.hdfs.trino.principal and hive.hdfs.trino.keytab")
    public boolean isKerberosComplete()
    {
        return authenticationType != AuthenticationType.KERBEROS || (principal != null && keytab != null);
    }
}
