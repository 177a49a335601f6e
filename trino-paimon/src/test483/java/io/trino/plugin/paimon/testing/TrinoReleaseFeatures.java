package io.trino.plugin.paimon.testing;

/** What the connector can do on the Trino release the tests run on (Trino 483), for tests of those features alone. */
public final class TrinoReleaseFeatures
{
    /** Parquet data files get column and offset indexes: only where Trino's writer tells where each row group ends. */
    public static final boolean WRITES_PARQUET_PAGE_INDEXES = false;
    /** A catalog can switch S3's exclusive create off ({@code s3.exclusive-create}, defunct since Trino 477). */
    public static final boolean S3_EXCLUSIVE_CREATE_OPTIONAL = false;

    private TrinoReleaseFeatures() {}
}
