package io.trino.plugin.paimon;

import org.junit.jupiter.api.Tag;

@Tag("conformance")
public class TestPaimonOrcPrimaryKeyConnectorTest
        extends BasePaimonPrimaryKeyConnectorTest
{
    public TestPaimonOrcPrimaryKeyConnectorTest()
    {
        super("orc");
    }
}
