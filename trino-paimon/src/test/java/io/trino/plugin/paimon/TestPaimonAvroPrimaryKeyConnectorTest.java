package io.trino.plugin.paimon;

import org.junit.jupiter.api.Tag;

@Tag("conformance")
public class TestPaimonAvroPrimaryKeyConnectorTest
        extends BasePaimonPrimaryKeyConnectorTest
{
    public TestPaimonAvroPrimaryKeyConnectorTest()
    {
        super("avro");
    }
}
