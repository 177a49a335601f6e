/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.write;

import io.trino.orc.metadata.CompressionKind;
import io.trino.plugin.paimon.format.avro.AvroFiles;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.spi.TrinoException;
import org.apache.avro.SchemaParseException;
import org.apache.avro.file.CodecFactory;
import org.apache.parquet.format.CompressionCodec;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static java.util.Objects.requireNonNull;

/**
 * The format and codec of the data files written at one level (or of changelog files), resolved from the table's
 * {@code file.format}, {@code file.compression} and their {@code .per.level} forms, with the codec names Paimon accepts
 * for the format: Parquet zstd, snappy, gzip, none; ORC zstd, lz4, snappy, zlib, none; Avro zstd, snappy, deflate,
 * null (none). {@code file.compression.zstd-level} is not applied: the zstd of Trino's writers has one level.
 */
public record FileWriteFormat(Format format, String compression, ParquetLayout parquetLayout, OrcLayout orcLayout)
{
    public enum Format
    {
        PARQUET, ORC, AVRO;

        /** The extension of the files, which is also the value of {@code file.format}. */
        public String extension()
        {
            return name().toLowerCase(Locale.ENGLISH);
        }
    }

    public FileWriteFormat
    {
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(parquetLayout, "parquetLayout is null");
        requireNonNull(orcLayout, "orcLayout is null");
    }

    /**
     * @param formatOption and compressionOption: the options the values come from, named in errors
     */
    public static FileWriteFormat of(String tableName, String formatOption, String format, String compressionOption, String compression, ParquetLayout parquetLayout, OrcLayout orcLayout)
    {
        Format kind = switch (format.trim().toLowerCase(Locale.ENGLISH)) {
            case "parquet" -> Format.PARQUET;
            case "orc" -> Format.ORC;
            case "avro" -> Format.AVRO;
            default -> throw new TrinoException(NOT_SUPPORTED, "Cannot write to Paimon table %s: option '%s' = '%s'; data files can be written as parquet, orc or avro"
                    .formatted(tableName, formatOption, format));
        };
        FileWriteFormat result = new FileWriteFormat(kind, compression.trim().toLowerCase(Locale.ENGLISH), parquetLayout, orcLayout);
        boolean known = switch (kind) {
            case PARQUET -> result.parquetCodec() != null;
            case ORC -> result.orcCodec() != null;
            case AVRO -> AvroFiles.dataFileCodec(result.compression).isPresent();
        };
        if (!known) {
            String codecs = switch (kind) {
                case PARQUET -> "zstd, snappy, gzip or none";
                case ORC -> "zstd, lz4, snappy, zlib or none";
                case AVRO -> "zstd, snappy, deflate or null";
            };
            throw new TrinoException(NOT_SUPPORTED, "Cannot write to Paimon table %s: option '%s' = '%s' is not a codec of %s files (%s)"
                    .formatted(tableName, compressionOption, compression, kind.extension(), codecs));
        }
        return result;
    }

    /**
     * Fails when the column holds a type Paimon cannot write in this format: Avro has no TIMESTAMP (with or without
     * local time zone) above precision 6 and no TIME above precision 3, and Paimon's Avro writer fails on a MULTISET of
     * other than strings; names Avro does not allow fail there too.
     */
    public static void checkWritable(String tableName, Format format, DataField field)
    {
        if (format == Format.PARQUET || format == Format.ORC) {
            // Trino's writers take every type the Parquet file schema knows; nested TIME stays refused for both
            ParquetFileSchema.checkWritable(tableName, field);
            return;
        }
        if (!fitsAvro(field.type())) {
            throw new TrinoException(NOT_SUPPORTED, "Cannot write to Paimon table %s: column '%s' of type %s cannot be stored in avro files (Avro holds TIMESTAMP up to precision 6, TIME up to precision 3 and MULTISET of strings only)"
                    .formatted(tableName, field.name(), field.type().asSqlString()));
        }
        try {
            AvroFormatFileWriter.schema(List.of(new DataFileColumn(field.name(), field.id(), field.type(), BOOLEAN)));
        }
        catch (SchemaParseException e) {
            throw new TrinoException(NOT_SUPPORTED, "Cannot write to Paimon table %s: column '%s' cannot be stored in avro files: %s".formatted(tableName, field.name(), e.getMessage()), e);
        }
    }

    /** A writer of one file of this format into the stream, holding the columns. */
    FormatFileWriter create(CountingOutputStream output, List<DataFileColumn> columns)
            throws IOException
    {
        return switch (format) {
            case PARQUET -> new ParquetFormatFileWriter(output, columns, parquetCodec(), parquetLayout);
            case ORC -> new OrcFormatFileWriter(output, columns, orcCodec(), orcLayout);
            case AVRO -> new AvroFormatFileWriter(output, columns, avroCodec());
        };
    }

    private CompressionCodec parquetCodec()
    {
        return switch (compression) {
            case "zstd" -> CompressionCodec.ZSTD;
            case "snappy" -> CompressionCodec.SNAPPY;
            case "gzip" -> CompressionCodec.GZIP;
            case "none", "uncompressed" -> CompressionCodec.UNCOMPRESSED;
            default -> null;
        };
    }

    // Paimon hands the upper-cased name to ORC's CompressionKind; Trino's writer has all but lzo and brotli
    private CompressionKind orcCodec()
    {
        return switch (compression) {
            case "zstd" -> CompressionKind.ZSTD;
            case "lz4" -> CompressionKind.LZ4;
            case "snappy" -> CompressionKind.SNAPPY;
            case "zlib" -> CompressionKind.ZLIB;
            case "none" -> CompressionKind.NONE;
            default -> null;
        };
    }

    private CodecFactory avroCodec()
    {
        return AvroFiles.dataFileCodec(compression).orElseThrow();
    }

    private static boolean fitsAvro(DataType type)
    {
        return switch (type) {
            case DataType.TimeType time -> time.precision() <= 3;
            case DataType.TimestampType timestamp -> timestamp.precision() <= 6;
            case DataType.LocalZonedTimestampType timestamp -> timestamp.precision() <= 6;
            case DataType.ArrayType array -> fitsAvro(array.elementType());
            // Paimon's Avro writer fails on a multiset that becomes an array of key/value records
            case DataType.MultisetType multiset -> (multiset.elementType() instanceof DataType.CharType || multiset.elementType() instanceof DataType.VarCharType) && fitsAvro(multiset.elementType());
            case DataType.MapType map -> fitsAvro(map.keyType()) && fitsAvro(map.valueType());
            case DataType.RowType row -> row.fields().stream().allMatch(field -> fitsAvro(field.type()));
            default -> true;
        };
    }
}
