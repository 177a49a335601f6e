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
 * Files opened, row groups read and skipped, records read and those whose values were never read, pages of values a two-pass merge never read, sections read straight through or merged, bytes read and
 * time spent reading the files of one split, reported to Trino by the page source.
 */
final class ReadMetrics
{
    private long filesOpened;
    private long rowGroupsRead;
    private long rowGroupsSkipped;
    private long records;
    private long recordsValuesUnread;
    private long valuePagesUnread;
    private long sectionsPassedThrough;
    private long sectionsMerged;
    private long sortedRuns;
    private long bytes;
    private long nanos;

    void fileOpened()
    {
        filesOpened++;
    }

    void rowGroups(int total, int read)
    {
        rowGroupsRead += read;
        rowGroupsSkipped += total - read;
    }

    void recordsRead(int count)
    {
        records += count;
    }

    void valuesUnread(int count)
    {
        recordsValuesUnread += count;
    }

    void valuePagesUnread(long count)
    {
        valuePagesUnread += count;
    }

    void section(int runs)
    {
        sortedRuns += runs;
        if (runs == 1) {
            sectionsPassedThrough++;
        }
        else {
            sectionsMerged++;
        }
    }

    void add(long bytes, long nanos)
    {
        this.bytes += bytes;
        this.nanos += nanos;
    }

    long filesOpened()
    {
        return filesOpened;
    }

    long rowGroupsRead()
    {
        return rowGroupsRead;
    }

    long rowGroupsSkipped()
    {
        return rowGroupsSkipped;
    }

    long records()
    {
        return records;
    }

    long recordsValuesUnread()
    {
        return recordsValuesUnread;
    }

    long valuePagesUnread()
    {
        return valuePagesUnread;
    }

    long sectionsPassedThrough()
    {
        return sectionsPassedThrough;
    }

    long sectionsMerged()
    {
        return sectionsMerged;
    }

    long sortedRuns()
    {
        return sortedRuns;
    }

    long bytes()
    {
        return bytes;
    }

    long nanos()
    {
        return nanos;
    }
}
