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

/** {@code bool_and}: true while every non-null input is true. */
final class BoolAndAggregator
        extends BooleanAggregator
{
    BoolAndAggregator(int channel, String context, String function)
    {
        super(channel, context, function);
    }

    @Override
    protected boolean combine(boolean accumulator, boolean input)
    {
        return accumulator && input;
    }
}
