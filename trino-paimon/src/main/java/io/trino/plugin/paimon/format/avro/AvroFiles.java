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
package io.trino.plugin.paimon.format.avro;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.MetadataFiles;
import io.trino.spi.TrinoException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INTERNAL_ERROR;
import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_METADATA;

/**
 * Avro object container files, the format of Paimon's manifest lists, manifests and index manifests. Files are
 * read with the writer's schema from the file and decoded field by field by name, so files of older and newer
 * Paimon versions (fields missing or added) read alike.
 */
public final class AvroFiles
{
    static {
        // register our pure-Java codecs before Avro resolves any file's codec by name
        ZstandardCodec.factory();
        SnappyCodec.factory();
    }

    private AvroFiles() {}

    /**
     * Reads every record of the file. Avro's reader takes a file cut short at a block boundary for a shorter
     * file, so the file is checked first: its length against the one the referring metadata records (when known),
     * and its end against the sync marker every Avro block ends with.
     *
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it is missing, truncated or not
     * what Paimon writes
     */
    public static <T> List<T> read(TrinoFileSystem fileSystem, Location location, OptionalLong expectedLength, Function<GenericRecord, T> decoder)
    {
        List<T> values = new ArrayList<>();
        read(fileSystem, location, expectedLength, new GenericDatumReader<GenericRecord>(), record -> values.add(decoder.apply(record)));
        return values;
    }

    /**
     * Streams the records of the file, as decoded by the reader, to the consumer; records the reader decodes to
     * {@code null} (ones it chose to skip) are counted but not passed on. The file is checked as {@link #read} does.
     *
     * @return the number of records in the file
     * @throws TrinoException {@code PAIMON_INVALID_METADATA} naming the file when it is missing, truncated or not
     * what Paimon writes
     */
    public static <T> long read(TrinoFileSystem fileSystem, Location location, OptionalLong expectedLength, DatumReader<T> reader, Consumer<? super T> consumer)
    {
        long records = 0;
        try {
            byte[] content = expectedLength.isPresent()
                    ? MetadataFiles.readFile(fileSystem, location, expectedLength.getAsLong())
                    : MetadataFiles.readFile(fileSystem, location);
            checkEndsWithSyncMarker(content);
            try (DataFileStream<T> stream = new DataFileStream<>(new ByteArrayInputStream(content), reader)) {
                T value = null;
                while (stream.hasNext()) {
                    value = stream.next(value);
                    records++;
                    if (value != null) {
                        consumer.accept(value);
                    }
                }
            }
        }
        catch (InvalidMetadataException | IOException | AvroRuntimeException | ClassCastException | IllegalArgumentException e) {
            throw new TrinoException(PAIMON_INVALID_METADATA, "Invalid Paimon metadata file %s: %s".formatted(location, e.getMessage()), e);
        }
        return records;
    }

    /**
     * A stream over the records of an Avro object container file (Paimon's Avro data files), decoded by the given
     * reader, with every codec Paimon writes available.
     */
    public static <T> DataFileStream<T> openStream(InputStream input, DatumReader<T> reader)
            throws IOException
    {
        return new DataFileStream<>(input, reader);
    }

    // header: magic "Obj\1", the metadata map, then the 16-byte sync marker that also closes every block
    private static void checkEndsWithSyncMarker(byte[] content)
            throws IOException
    {
        if (content.length < 4 || content[0] != 'O' || content[1] != 'b' || content[2] != 'j' || content[3] != 1) {
            throw new InvalidMetadataException("not an Avro file");
        }
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(content, 4, content.length - 4, null);
        for (long entries = decoder.readMapStart(); entries != 0; entries = decoder.mapNext()) {
            for (long i = 0; i < entries; i++) {
                decoder.skipString();
                decoder.skipBytes();
            }
        }
        byte[] sync = new byte[16];
        decoder.readFixed(sync);
        if (!Arrays.equals(sync, 0, 16, content, content.length - 16, content.length)) {
            throw new InvalidMetadataException("file is truncated (it does not end with its Avro sync marker)");
        }
    }

    /**
     * The codec of Avro data files for a value of {@code file.compression} as Paimon reads it for Avro ({@code zstd}
     * is Avro's {@code zstandard}), or empty when Paimon does not write Avro files with it.
     */
    public static Optional<CodecFactory> dataFileCodec(String compression)
    {
        return switch (compression) {
            case "zstd", ZstandardCodec.NAME -> Optional.of(ZstandardCodec.factory());
            case SnappyCodec.NAME -> Optional.of(SnappyCodec.factory());
            case "deflate" -> Optional.of(CodecFactory.deflateCodec(CodecFactory.DEFAULT_DEFLATE_LEVEL));
            case "null", "none" -> Optional.of(CodecFactory.nullCodec());
            default -> Optional.empty();
        };
    }

    /** The bytes of an Avro file holding the records, compressed with zstandard as Paimon writes manifests. */
    public static <T> byte[] write(Schema schema, List<T> values, Function<T, GenericRecord> encoder)
    {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
            writer.setCodec(ZstandardCodec.factory());
            writer.create(schema, output);
            for (T value : values) {
                writer.append(encoder.apply(value));
            }
        }
        catch (IOException e) {
            throw new TrinoException(PAIMON_INTERNAL_ERROR, "Cannot encode Avro records of %s".formatted(schema.getFullName()), e);
        }
        return output.toByteArray();
    }
}
