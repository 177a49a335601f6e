package io.trino.plugin.paimon.format;

/**
 * A schema file whose content is not a Paimon table schema. Callers turn it into a {@code TrinoException}
 * naming the file.
 */
public class InvalidSchemaException
        extends RuntimeException
{
    public InvalidSchemaException(String message)
    {
        super(message);
    }

    public InvalidSchemaException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
