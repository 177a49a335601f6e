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
package io.trino.plugin.paimon.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the same work in several sessions at once, each on a thread of its own, for the suites that race writers
 * against each other.
 */
public final class ConcurrentSessions
{
    private ConcurrentSessions() {}

    /**
     * Runs {@code work} for sessions 0 to {@code sessions - 1} at once and returns their results in session order;
     * the first session to fail (in that order) fails the call, and the threads still running are interrupted.
     */
    public static <T> List<T> runSessions(int sessions, SessionWork<T> work)
            throws Exception
    {
        ExecutorService executor = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int session = 0; session < sessions; session++) {
                int id = session;
                futures.add(executor.submit(() -> work.run(id)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
        finally {
            executor.shutdownNow();
        }
    }

    public interface SessionWork<T>
    {
        T run(int session)
                throws Exception;
    }
}
