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

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Where things are in the pages the merge reads: key channels first ({@code 0 .. keyCount-1}), then the sequence
 * number (BIGINT), the row kind (TINYINT: 0 +I, 1 -U, 2 +U, 3 -D), and the value channels; user sequence fields and
 * the columns the query asked for are value channels.
 */
public record KeyValueLayout(int keyCount, int[] userSequenceChannels, boolean userSequenceDescending, int[] outputChannels)
{
    public static final byte INSERT = 0;
    public static final byte UPDATE_BEFORE = 1;
    public static final byte UPDATE_AFTER = 2;
    public static final byte DELETE = 3;

    public KeyValueLayout
    {
        checkArgument(keyCount >= 0, "keyCount is negative");
        userSequenceChannels = requireNonNull(userSequenceChannels, "userSequenceChannels is null").clone();
        outputChannels = requireNonNull(outputChannels, "outputChannels is null").clone();
    }

    public int sequenceChannel()
    {
        return keyCount;
    }

    public int kindChannel()
    {
        return keyCount + 1;
    }

    public int firstValueChannel()
    {
        return firstValueChannel(keyCount);
    }

    /** The first value channel of records with this many key channels: after the sequence number and the row kind. */
    public static int firstValueChannel(int keyCount)
    {
        return keyCount + 2;
    }

    /** -U and -D records retract; a merged result of such a kind is dropped. */
    public static boolean isRetract(byte kind)
    {
        return kind == UPDATE_BEFORE || kind == DELETE;
    }
}
