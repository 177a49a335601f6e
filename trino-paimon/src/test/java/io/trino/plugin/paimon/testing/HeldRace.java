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

import io.trino.plugin.paimon.testing.FaultFs.Hang;
import io.trino.plugin.paimon.testing.FaultFs.Operation;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The shape of the race tests: a statement runs until it reaches a file operation, where {@link FaultFs} holds it;
 * a rival runs meanwhile (a statement, a Paimon Java commit); then the held statement goes on and its outcome is
 * returned. The hang's rules are cleared whatever happens.
 */
public final class HeldRace
{
    private final FaultFs faultFs;
    private final Operation operation;
    private final String pathGlob;

    /**
     * @param pathGlob the file the held statement stops at: its first matching {@code operation}
     */
    public HeldRace(FaultFs faultFs, Operation operation, String pathGlob)
    {
        this.faultFs = requireNonNull(faultFs, "faultFs is null");
        this.operation = requireNonNull(operation, "operation is null");
        this.pathGlob = requireNonNull(pathGlob, "pathGlob is null");
    }

    /**
     * Runs {@code held} until it stops at the file, runs {@code rival}, releases {@code held} and waits for it.
     *
     * @return how the held statement failed, empty when it succeeded
     * @throws AssertionError when the held statement ends without reaching the file
     */
    public Optional<RuntimeException> run(Runnable held, Rival rival)
            throws Exception
    {
        Hang hang = faultFs.hang(operation, pathGlob, 1);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> statement = executor.submit(held);
            while (!hang.awaitReached(100, TimeUnit.MILLISECONDS)) {
                if (statement.isDone()) {
                    // a failure before the file is the answer; a success means the file was never written
                    statement.get();
                    throw new AssertionError("the held statement finished without reaching %s %s".formatted(operation, pathGlob));
                }
            }
            try {
                rival.run();
            }
            finally {
                hang.release();
            }
            try {
                statement.get();
                return Optional.empty();
            }
            catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    return Optional.of(failure);
                }
                throw e;
            }
        }
        finally {
            hang.release();
            faultFs.clearRules();
            executor.shutdownNow();
        }
    }

    /** What runs while the statement is held. */
    public interface Rival
    {
        void run()
                throws Exception;
    }
}
