package io.trino.plugin.paimon;

import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.UUID;

import static java.util.Objects.requireNonNull;

public record PaimonTransactionHandle(UUID uuid)
        implements ConnectorTransactionHandle
{
    public PaimonTransactionHandle
    {
        requireNonNull(uuid, "uuid is null");
    }

    public static PaimonTransactionHandle create()
    {
        return new PaimonTransactionHandle(UUID.randomUUID());
    }
}
