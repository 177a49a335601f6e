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
package io.trino.plugin.paimon.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The heap a read retains, measured rather than estimated: a full collection before the read gives the baseline,
 * and a full collection at a few points during the read leaves only what is reachable then (open readers, the
 * pages of every sorted run, the output being built, the page the consumer holds). The peak over those points,
 * less the baseline, is the read's retained heap. Sampling points are a handful per read, so a short peak between
 * them can be missed; the figure is a lower bound of the true peak, and never includes garbage.
 */
final class HeapProbe
{
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final int samplingInterval;
    private long baseline;
    private long peak;
    private long pages;

    /** Samples after every samplingInterval pages. */
    HeapProbe(int samplingInterval)
    {
        this.samplingInterval = samplingInterval;
        this.baseline = liveHeap();
    }

    void pageConsumed()
    {
        pages++;
        if (pages % samplingInterval == 0) {
            peak = Math.max(peak, liveHeap() - baseline);
        }
    }

    long peakRetainedBytes()
    {
        return peak;
    }

    private long liveHeap()
    {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
