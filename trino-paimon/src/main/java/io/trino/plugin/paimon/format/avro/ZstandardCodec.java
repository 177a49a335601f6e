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

import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.zstd.ZstdInputStream;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import org.apache.avro.file.Codec;
import org.apache.avro.file.CodecFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Avro's {@code zstandard} codec, Paimon's default for manifests, on the pure-Java zstd of aircompressor. Avro's
 * own implementation needs zstd-jni, a native library that a Trino plugin should not load (another plugin may
 * already hold it in its own class loader).
 */
final class ZstandardCodec
        extends Codec
{
    static final String NAME = "zstandard";

    private static final CodecFactory FACTORY = new CodecFactory()
    {
        @Override
        protected Codec createInstance()
        {
            return new ZstandardCodec();
        }
    };

    static {
        // replaces Avro's zstd-jni codec for every reader and writer in this plugin's class loader
        CodecFactory.addCodec(NAME, FACTORY);
    }

    // the smallest buffer a block of unknown size is first decoded into: Avro's default block of 64 KB and its last record
    private static final int MIN_CAPACITY = 128 * 1024;
    // the largest buffer a block of unknown size is first decoded into; a larger block is decoded as a stream
    private static final int MAX_GUESS = 16 * 1024 * 1024;

    private final ZstdJavaDecompressor decompressor = new ZstdJavaDecompressor();
    private byte[] first = new byte[0];
    private byte[] second = new byte[0];

    ZstandardCodec() {}

    /** Makes sure the codec is registered before Avro resolves a file's codec by name. */
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
        ZstdJavaCompressor compressor = new ZstdJavaCompressor();
        byte[] output = new byte[compressor.maxCompressedLength(input.length)];
        int length = compressor.compress(input, 0, input.length, output, 0, output.length);
        return ByteBuffer.wrap(output, 0, length);
    }

    /**
     * Decodes a block in one call into a buffer this codec keeps for the next block, growing it only when a block
     * needs more. A block whose frame does not declare its size (streaming encoders, such as zstd-jni's under Paimon
     * Java, may leave it out) is tried in the buffer as it is, grown to eight times the compressed size (at most
     * 16 MB), and decoded as a stream when that is too small, as is a block of several frames. Avro reads each next compressed block into the array of the previous
     * result, so two buffers alternate and the output never overwrites the input.
     */
    @Override
    public ByteBuffer decompress(ByteBuffer compressed)
            throws IOException
    {
        int length = compressed.remaining();
        byte[] input;
        int offset;
        if (compressed.hasArray()) {
            input = compressed.array();
            offset = compressed.arrayOffset() + compressed.position();
        }
        else {
            input = new byte[length];
            compressed.duplicate().get(input);
            offset = 0;
        }
        boolean useFirst = input != first;
        byte[] output = useFirst ? first : second;
        try {
            long declared = decompressor.getDecompressedSize(input, offset, length);
            if (declared > Integer.MAX_VALUE - 8) {
                throw new IOException("Zstandard block declares %s bytes".formatted(declared));
            }
            int capacity = declared >= 0 ? (int) declared : (int) Math.clamp(8L * length, MIN_CAPACITY, MAX_GUESS);
            if (output.length < capacity) {
                output = new byte[capacity];
            }
            int size;
            try {
                size = decompressor.decompress(input, offset, length, output, 0, output.length);
            }
            catch (MalformedInputException e) {
                // larger than the guess (or, declared, than the first of several frames), or corrupt: the stream
                // decoder tells which
                try (InputStream stream = new ZstdInputStream(new ByteArrayInputStream(input, offset, length))) {
                    output = stream.readAllBytes();
                }
                size = output.length;
            }
            if (useFirst) {
                first = output;
            }
            else {
                second = output;
            }
            return ByteBuffer.wrap(output, 0, size);
        }
        catch (RuntimeException e) {
            throw new IOException("Corrupt zstandard block", e);
        }
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof ZstandardCodec;
    }

    @Override
    public int hashCode()
    {
        return NAME.hashCode();
    }
}
