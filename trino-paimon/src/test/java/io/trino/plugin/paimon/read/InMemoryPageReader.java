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
package io.trino.plugin.paimon.read;

/**
 * A file reader of tests that hold a file's pages in memory: one row group, read whole, no bytes from storage, no
 * memory of its own. Tests give the pages and record what the merge reads of them.
 */
abstract class InMemoryPageReader
        implements DataFilePageReader
{
    @Override
    public int rowGroupCount()
    {
        return 1;
    }

    @Override
    public int rowGroupsRead()
    {
        return 1;
    }

    @Override
    public long memoryUsage()
    {
        return 0;
    }

    @Override
    public long readBytes()
    {
        return 0;
    }

    @Override
    public long readTimeNanos()
    {
        return 0;
    }
}
