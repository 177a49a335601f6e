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

import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

/** The tasks of an in-process query runner's coordinator, read as Trino 476's TaskStatus offers them. */
public final class RunnerTasks
{
    private RunnerTasks() {}

    /** Whether every task the coordinator knows of has finished, failed or been cancelled. */
    public static boolean allDone(QueryRunner queryRunner)
    {
        return ((DistributedQueryRunner) queryRunner).getCoordinator().getTaskManager().getAllTaskInfo().stream()
                .allMatch(task -> task.taskStatus().getState().isDone());
    }
}
