package io.trino.plugin.paimon.format.avro;

import io.airlift.compress.v3.zstd.ZstdInputStream;
import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
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

    private ZstandardCodec() {}

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

    @Override
    public ByteBuffer decompress(ByteBuffer compressed)
            throws IOException
    {
        byte[] input = new byte[compressed.remaining()];
        compressed.duplicate().get(input);
        // frames written by streaming zstd encoders need not declare their size: decode as a stream
        try (InputStream stream = new ZstdInputStream(new ByteArrayInputStream(input))) {
            return ByteBuffer.wrap(stream.readAllBytes());
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
