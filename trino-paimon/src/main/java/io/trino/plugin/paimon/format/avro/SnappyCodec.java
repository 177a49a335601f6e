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

import io.airlift.compress.v3.snappy.SnappyJavaCompressor;
import io.airlift.compress.v3.snappy.SnappyJavaDecompressor;
import org.apache.avro.file.Codec;
import org.apache.avro.file.CodecFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Avro's {@code snappy} codec (manifests of tables with {@code manifest.compression=snappy}) on aircompressor's
 * pure-Java Snappy: a raw Snappy block followed by the big-endian CRC32 of the uncompressed bytes. Avro's own
 * codec needs the native snappy-java library, which the plugin does not carry. Avro data files of tables with
 * {@code file.compression=snappy} are written with it.
 */
final class SnappyCodec
        extends Codec
{
    static final String NAME = "snappy";

    private static final CodecFactory FACTORY = new CodecFactory()
    {
        @Override
        protected Codec createInstance()
        {
            return new SnappyCodec();
        }
    };

    static {
        CodecFactory.addCodec(NAME, FACTORY);
    }

    private SnappyCodec() {}

    static CodecFactory factory()
    {
        return FACTORY;
    }

    @Override
    public String getName()
    {
        return NAME;
    }

    @Override
    public ByteBuffer compress(ByteBuffer uncompressed)
    {
        byte[] input = new byte[uncompressed.remaining()];
        uncompressed.duplicate().get(input);
        SnappyJavaCompressor compressor = new SnappyJavaCompressor();
        byte[] output = new byte[compressor.maxCompressedLength(input.length) + 4];
        int length = compressor.compress(input, 0, input.length, output, 0, output.length - 4);
        CRC32 crc = new CRC32();
        crc.update(input);
        ByteBuffer.wrap(output, length, 4).putInt((int) crc.getValue());
        return ByteBuffer.wrap(output, 0, length + 4);
    }

    @Override
    public ByteBuffer decompress(ByteBuffer compressed)
            throws IOException
    {
        byte[] input = new byte[compressed.remaining()];
        compressed.duplicate().get(input);
        if (input.length < 4) {
            throw new IOException("Corrupt snappy block: shorter than its checksum");
        }
        SnappyJavaDecompressor decompressor = new SnappyJavaDecompressor();
        byte[] output;
        try {
            output = new byte[decompressor.getUncompressedLength(input, 0)];
            decompressor.decompress(input, 0, input.length - 4, output, 0, output.length);
        }
        catch (RuntimeException e) {
            throw new IOException("Corrupt snappy block", e);
        }
        CRC32 crc = new CRC32();
        crc.update(output);
        int expected = ByteBuffer.wrap(input, input.length - 4, 4).getInt();
        if ((int) crc.getValue() != expected) {
            throw new IOException("Corrupt snappy block: checksum mismatch");
        }
        return ByteBuffer.wrap(output);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof SnappyCodec;
    }

    @Override
    public int hashCode()
    {
        return NAME.hashCode();
    }
}
