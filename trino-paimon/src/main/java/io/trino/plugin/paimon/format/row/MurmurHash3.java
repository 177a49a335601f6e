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
package io.trino.plugin.paimon.format.row;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * MurmurHash3 x86_32 over 4-byte little-endian words, as Paimon hashes binary rows (bucket assignment, row
 * hash codes). Rows are always a multiple of 8 bytes long, so there is never a tail.
 */
public final class MurmurHash3
{
    public static final int PAIMON_SEED = 42;

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private MurmurHash3() {}

    public static int hashWords(byte[] bytes, int offset, int length, int seed)
    {
        checkArgument(length % 4 == 0, "length must be a multiple of 4: %s", length);
        int hash = seed;
        for (int i = offset; i < offset + length; i += 4) {
            int word = (bytes[i] & 0xFF) | ((bytes[i + 1] & 0xFF) << 8) | ((bytes[i + 2] & 0xFF) << 16) | ((bytes[i + 3] & 0xFF) << 24);
            word *= C1;
            word = Integer.rotateLeft(word, 15);
            word *= C2;
            hash ^= word;
            hash = Integer.rotateLeft(hash, 13);
            hash = hash * 5 + 0xe6546b64;
        }
        hash ^= length;
        return finalizeMix(hash);
    }

    private static int finalizeMix(int hash)
    {
        hash ^= hash >>> 16;
        hash *= 0x85ebca6b;
        hash ^= hash >>> 13;
        hash *= 0xc2b2ae35;
        hash ^= hash >>> 16;
        return hash;
    }
}
