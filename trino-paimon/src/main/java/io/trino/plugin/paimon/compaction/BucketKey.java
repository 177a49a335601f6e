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
package io.trino.plugin.paimon.compaction;

import io.trino.plugin.paimon.format.row.BinaryRow;

import java.nio.ByteBuffer;

/** A bucket of a partition, as a key of sets and maps: by the partition row's bytes. */
record BucketKey(ByteBuffer partition, int bucket)
{
    static BucketKey of(BinaryRow partition, int bucket)
    {
        return new BucketKey(ByteBuffer.wrap(partition.bytes()), bucket);
    }
}
