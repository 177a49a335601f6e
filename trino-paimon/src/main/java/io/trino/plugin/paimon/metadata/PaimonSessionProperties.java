package io.trino.plugin.paimon.metadata;

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.spi.session.PropertyMetadata.enumProperty;

/**
 * The connector's session properties. {@code insert_existing_partitions_behavior} has the name and values Trino's
 * Hive connector gives it: {@code APPEND} adds the rows of an INSERT to the table, {@code OVERWRITE} replaces the
 * partitions the INSERT writes (the whole table when it has no partitions), as Paimon's INSERT OVERWRITE does.
 */
public final class PaimonSessionProperties
{
    public static final String INSERT_EXISTING_PARTITIONS_BEHAVIOR = "insert_existing_partitions_behavior";

    public enum InsertExistingPartitionsBehavior
    {
        APPEND,
        OVERWRITE,
    }

    private final List<PropertyMetadata<?>> sessionProperties = ImmutableList.of(
            enumProperty(
                    INSERT_EXISTING_PARTITIONS_BEHAVIOR,
                    "Behavior of INSERT on partitions that hold data: APPEND adds rows, OVERWRITE replaces the partitions written (the whole table when it has no partitions)",
                    InsertExistingPartitionsBehavior.class,
                    InsertExistingPartitionsBehavior.APPEND,
                    false));

    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties;
    }

    public static InsertExistingPartitionsBehavior insertExistingPartitionsBehavior(ConnectorSession session)
    {
        return session.getProperty(INSERT_EXISTING_PARTITIONS_BEHAVIOR, InsertExistingPartitionsBehavior.class);
    }
}
