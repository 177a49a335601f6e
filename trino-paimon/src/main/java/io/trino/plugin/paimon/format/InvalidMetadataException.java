package io.trino.plugin.paimon.format;

/**
 * A metadata file (schema, snapshot, manifest) whose content is not what Paimon writes. The codecs do not know
 * which file they decode; callers turn this into a {@code TrinoException} naming the file.
 */
public class InvalidMetadataException
        extends RuntimeException
{
    public InvalidMetadataException(String message)
    {
        super(message);
    }

    public InvalidMetadataException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
