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
package io.trino.plugin.paimon.merge;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The union of two serialized sketches or bitmaps, byte for byte as Paimon 1.4 computes it (merge-semantics §7.2),
 * with the same libraries: DataSketches 4.2 and RoaringBitmap, which serialize deterministically.
 */
enum BinaryUnion
{
    /** An HLL union seeded with the accumulator, the input's sketch added, the result as a compact HLL_4 sketch. */
    HLL_SKETCH {
        @Override
        byte[] union(byte[] accumulator, byte[] input)
        {
            org.apache.datasketches.hll.Union union = org.apache.datasketches.hll.Union.heapify(input);
            union.update(HllSketch.heapify(accumulator));
            return union.getResult(TgtHllType.HLL_4).toCompactByteArray();
        }
    },
    /** A theta union of default size over both sketches, the result as an ordered compact sketch. */
    THETA_SKETCH {
        @Override
        byte[] union(byte[] accumulator, byte[] input)
        {
            Union union = SetOperation.builder().buildUnion();
            union.union(Memory.wrap(accumulator));
            union.union(Memory.wrap(input));
            return union.getResult().toByteArray();
        }
    },
    /** The OR of two 32-bit roaring bitmaps in the portable format, run-optimized before it is serialized. */
    RBM32 {
        @Override
        byte[] union(byte[] accumulator, byte[] input)
                throws IOException
        {
            RoaringBitmap result = new RoaringBitmap();
            result.deserialize(ByteBuffer.wrap(accumulator));
            RoaringBitmap other = new RoaringBitmap();
            other.deserialize(ByteBuffer.wrap(input));
            result.or(other);
            result.runOptimize();
            ByteBuffer buffer = ByteBuffer.allocate(result.serializedSizeInBytes());
            result.serialize(buffer);
            return buffer.array();
        }
    },
    /** The OR of two {@code Roaring64Bitmap}s in their own format, run-optimized before it is serialized. */
    RBM64 {
        @Override
        byte[] union(byte[] accumulator, byte[] input)
                throws IOException
        {
            Roaring64Bitmap result = deserialize64(accumulator);
            result.or(deserialize64(input));
            result.runOptimize();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream output = new DataOutputStream(bytes)) {
                result.serialize(output);
            }
            return bytes.toByteArray();
        }
    };

    abstract byte[] union(byte[] accumulator, byte[] input)
            throws IOException;

    private static Roaring64Bitmap deserialize64(byte[] bytes)
            throws IOException
    {
        Roaring64Bitmap bitmap = new Roaring64Bitmap();
        try (DataInputStream input = new DataInputStream(new ByteArrayInputStream(bytes))) {
            bitmap.deserialize(input);
        }
        return bitmap;
    }
}
