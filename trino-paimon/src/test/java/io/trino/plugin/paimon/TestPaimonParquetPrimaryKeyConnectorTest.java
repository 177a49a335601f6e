package io.trino.plugin.paimon;

import org.junit.jupiter.api.Tag;

@Tag("conformance")
public class TestPaimonParquetPrimaryKeyConnectorTest
        extends BasePaimonPrimaryKeyConnectorTest
{
    public TestPaimonParquetPrimaryKeyConnectorTest()
    {
        super("parquet");
    }
}
