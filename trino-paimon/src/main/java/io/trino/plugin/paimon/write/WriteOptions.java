package io.trino.plugin.paimon.write;

import io.trino.spi.TrinoException;
import org.apache.parquet.format.CompressionCodec;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The table options that shape written files: write buffer size, target file size and Parquet compression, with
 * Paimon's defaults.
 */
public record WriteOptions(long writeBufferSize, long targetFileSize, CompressionCodec compression)
{
    private static final Pattern MEMORY_SIZE = Pattern.compile("(\\d+)\\s*([a-z]*)");

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

    // Paimon's MemorySize text: a number and an optional unit (b, k/kb, m/mb, g/gb, t/tb, also spelled out)
    static long memorySize(String tableName, Map<String, String> options, String option, String defaultValue)
    {
        String value = options.getOrDefault(option, defaultValue);
        Matcher matcher = MEMORY_SIZE.matcher(value.trim().toLowerCase(Locale.ENGLISH));
        if (matcher.matches()) {
            long multiplier = switch (matcher.group(2)) {
                case "", "b", "bytes" -> 1L;
                case "k", "kb", "kibibytes" -> 1L << 10;
                case "m", "mb", "mebibytes" -> 1L << 20;
                case "g", "gb", "gibibytes" -> 1L << 30;
                case "t", "tb", "tebibytes" -> 1L << 40;
                default -> -1L;
            };
            if (multiplier > 0) {
                try {
                    return Math.multiplyExact(Long.parseLong(matcher.group(1)), multiplier);
                }
                catch (ArithmeticException | NumberFormatException _) {
                    // falls through to the error
                }
            }
        }
        throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "Table %s: option '%s' has value '%s', expected a memory size such as '256 mb'".formatted(tableName, option, value));
    }
}
