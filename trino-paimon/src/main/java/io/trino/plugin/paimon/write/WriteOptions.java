package io.trino.plugin.paimon.write;

import io.trino.spi.TrinoException;
import org.apache.parquet.format.CompressionCodec;

import java.util.Locale;
import java.util.Map;

import static io.trino.plugin.paimon.table.TableOptions.parseMemorySize;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The table options that shape written files: write buffer size, target file size and Parquet compression, with
 * Paimon's defaults.
 */
public record WriteOptions(long writeBufferSize, long targetFileSize, CompressionCodec compression)
{
    public static WriteOptions of(String tableName, Map<String, String> options, boolean primaryKeyTable)
    {
        long writeBufferSize = memorySize(tableName, options, "write-buffer-size", "256 mb");
        long targetFileSize = memorySize(tableName, options, "target-file-size", primaryKeyTable ? "128 mb" : "256 mb");
        String codec = options.getOrDefault("file.compression", "zstd").trim().toLowerCase(Locale.ENGLISH);
        CompressionCodec compression = switch (codec) {
            case "zstd" -> CompressionCodec.ZSTD;
            case "snappy" -> CompressionCodec.SNAPPY;
            case "gzip" -> CompressionCodec.GZIP;
            case "none", "uncompressed" -> CompressionCodec.UNCOMPRESSED;
            default -> throw new TrinoException(NOT_SUPPORTED, "Table %s: writing Parquet files with 'file.compression' = '%s' is not supported (zstd, snappy, gzip or none)".formatted(tableName, codec));
        };
        return new WriteOptions(writeBufferSize, targetFileSize, compression);
    }

    private static long memorySize(String tableName, Map<String, String> options, String option, String defaultValue)
    {
        return parseMemorySize(tableName, option, options.getOrDefault(option, defaultValue));
    }
}
