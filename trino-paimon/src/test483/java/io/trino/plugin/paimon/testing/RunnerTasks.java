package io.trino.plugin.paimon.testing;

import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;

/** The tasks of an in-process query runner's coordinator, read as Trino 483's TaskStatus offers them. */
public final class RunnerTasks
{
    private RunnerTasks() {}

    /** Whether every task the coordinator knows of has finished, failed or been cancelled. */
    public static boolean allDone(QueryRunner queryRunner)
    {
        return ((DistributedQueryRunner) queryRunner).getCoordinator().getTaskManager().getAllTaskInfo().stream()
                .allMatch(task -> task.taskStatus().state().isDone());
    }
}
