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
import static com.google.common.base.Preconditions.checkState;

/**
 * A tournament (loser) tree over k sorted inputs: the smallest head is found in O(log k) comparisons after each
 * advance of the winning input. Inputs are identified by index; the tree asks the caller to compare the heads of
 * two inputs and whether an input is exhausted. Ties go to the lower input index.
 */
public final class LoserTree
{
    /** Compares the current heads of two non-exhausted inputs. */
    public interface HeadComparator
    {
        int compare(int left, int right);
    }

    private final int size;
    // tree[0] holds the overall winner, tree[1..size-1] the loser of each internal match
    private final int[] tree;
    private final boolean[] exhausted;
    private final HeadComparator comparator;

    /**
     * @param exhausted which inputs have no head at all; owned by the tree from now on
     */
    public LoserTree(int size, boolean[] exhausted, HeadComparator comparator)
    {
        checkArgument(size > 0, "a loser tree needs at least one input");
        checkArgument(exhausted.length == size, "exhausted flags do not match the number of inputs");
        this.size = size;
        this.tree = new int[size];
        this.exhausted = exhausted;
        this.comparator = comparator;
        int[] winners = new int[2 * size];
        for (int i = 0; i < size; i++) {
            winners[size + i] = i;
        }
        for (int node = size - 1; node >= 1; node--) {
            int left = winners[2 * node];
            int right = winners[2 * node + 1];
            if (beats(left, right)) {
                winners[node] = left;
                tree[node] = right;
            }
            else {
                winners[node] = right;
                tree[node] = left;
            }
        }
        tree[0] = size == 1 ? 0 : winners[1];
    }

    /** The input holding the smallest head; check {@link #isEmpty()} first. */
    public int winner()
    {
        return tree[0];
    }

    public boolean isEmpty()
    {
        return exhausted[tree[0]];
    }

    /** Replays the matches of the winner's path after its head moved on (or the input ran out). */
    public void winnerAdvanced(boolean nowExhausted)
    {
        checkState(!exhausted[tree[0]], "the tree is empty");
        int candidate = tree[0];
        exhausted[candidate] = nowExhausted;
        for (int node = (candidate + size) >>> 1; node >= 1; node >>>= 1) {
            int other = tree[node];
            if (beats(other, candidate)) {
                tree[node] = candidate;
                candidate = other;
            }
        }
        tree[0] = candidate;
    }

    // whether left's head comes before right's; exhausted inputs lose, ties go to the lower index
    private boolean beats(int left, int right)
    {
        if (exhausted[left]) {
            return false;
        }
        if (exhausted[right]) {
            return true;
        }
        int result = comparator.compare(left, right);
        return result < 0 || (result == 0 && left < right);
    }
}
