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

import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The zstandard codec decodes blocks in one call into buffers it reuses, so these cases are checked against the
 * original bytes: frames that declare their size and frames a streaming encoder wrote without it, blocks that
 * compress far better than the first guess, and compressed blocks read into the array of the previous result, as
 * Avro's reader does.
 */
final class TestZstandardCodec
{
    @Test
    void decodesEveryBlockAsItWasWritten()
            throws IOException
    {
        Random random = new Random(42);
        List<byte[]> blocks = List.of(
                text(random, 10),
                text(random, 100_000),
                new byte[3_000_000],
                text(random, 70_000),
                new byte[0],
                text(random, 200_000),
                new byte[500_000]);
        ZstandardCodec codec = new ZstandardCodec();
        ZstdJavaDecompressor sizes = new ZstdJavaDecompressor();
        byte[] previous = new byte[0];
        for (boolean declared : new boolean[] {true, false}) {
            for (byte[] block : blocks) {
                byte[] compressed = declared ? compress(block) : compressAsStream(block);
                assertThat(sizes.getDecompressedSize(compressed, 0, compressed.length) >= 0).isEqualTo(declared);
                // Avro reads the next compressed block into the previous result's array when it fits
                byte[] input = previous.length >= compressed.length ? previous : new byte[compressed.length];
                System.arraycopy(compressed, 0, input, 0, compressed.length);
                ByteBuffer result = codec.decompress(ByteBuffer.wrap(input, 0, compressed.length));
                assertThat(Arrays.copyOfRange(result.array(), result.arrayOffset() + result.position(), result.arrayOffset() + result.limit())).isEqualTo(block);
                assertThat(result.array()).isNotSameAs(input);
                previous = result.array();
            }
        }
    }

    @Test
    void decodesABlockOfSeveralFrames()
            throws IOException
    {
        // the first frame declares only its own size; the block holds two
        byte[] first = text(new Random(3), 1000);
        byte[] second = text(new Random(4), 2000);
        byte[] firstFrame = compress(first);
        byte[] secondFrame = compress(second);
        byte[] block = Arrays.copyOf(firstFrame, firstFrame.length + secondFrame.length);
        System.arraycopy(secondFrame, 0, block, firstFrame.length, secondFrame.length);
        ByteBuffer result = new ZstandardCodec().decompress(ByteBuffer.wrap(block));
        byte[] expected = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, expected, first.length, second.length);
        assertThat(Arrays.copyOfRange(result.array(), result.position(), result.limit())).isEqualTo(expected);
    }

    @Test
    void corruptBlockFails()
    {
        byte[] compressed = compress(new byte[1000]);
        compressed[compressed.length / 2] ^= 0x5a;
        byte[] truncated = Arrays.copyOf(compress(text(new Random(1), 5000)), 40);
        for (byte[] block : List.of(compressed, truncated, new byte[] {1, 2, 3})) {
            assertThatThrownBy(() -> new ZstandardCodec().decompress(ByteBuffer.wrap(block)))
                    .isInstanceOf(IOException.class);
        }
    }

    // words of a small alphabet: compresses as text does
    private static byte[] text(Random random, int length)
    {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ('a' + random.nextInt(12));
        }
        return bytes;
    }

    private static byte[] compress(byte[] block)
    {
        ZstdJavaCompressor compressor = new ZstdJavaCompressor();
        byte[] output = new byte[compressor.maxCompressedLength(block.length)];
        int length = compressor.compress(block, 0, block.length, output, 0, output.length);
        return Arrays.copyOf(output, length);
    }

    /**
     * The block as a frame that does not declare its size, as a streaming encoder writes it: the one-shot frame with
     * its header rewritten (no content size, not single-segment, a window descriptor that covers the whole block).
     */
    private static byte[] compressAsStream(byte[] block)
    {
        byte[] frame = compress(block);
        int descriptor = frame[4] & 0xff;
        int sizeFlag = descriptor >>> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        assertThat(descriptor & 0x03).as("dictionary id").isZero();
        int sizeBytes = switch (sizeFlag) {
            case 0 -> singleSegment ? 1 : 0;
            case 1 -> 2;
            case 2 -> 4;
            default -> 8;
        };
        int headerEnd = 5 + (singleSegment ? 0 : 1) + sizeBytes;
        // window of 2^(10 + exponent) bytes, at least the block
        int exponent = Math.max(0, 64 - Long.numberOfLeadingZeros(Math.max(1, block.length - 1)) - 10);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(frame, 0, 4);
        bytes.write(descriptor & 0x04);
        bytes.write(exponent << 3);
        bytes.write(frame, headerEnd, frame.length - headerEnd);
        return bytes.toByteArray();
    }
}
