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

import com.google.common.collect.ImmutableList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * What the local servers of the tests ({@link MariaDbServer}, {@link PostgresServer}, {@link HiveMetastoreServer}, and
 * the Trino servers of the end-to-end tests) share: running a command of their installation to its end, picking a
 * free port, and removing the server's folder when it failed to start.
 */
public final class LocalProcesses
{
    private LocalProcesses() {}

    /**
     * Runs the command in {@code root} and waits for it, for two minutes at the most; its output goes to a log
     * file in {@code root}, quoted in the failure when the command fails or does not end.
     */
    static void run(Path root, List<String> command)
    {
        try {
            Path log = Files.createTempFile(root, "command", ".log");
            Process process = new ProcessBuilder(ImmutableList.copyOf(command))
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("%s failed: %s".formatted(command, Files.readString(log)));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A port nothing listened on when it was probed: for a server to bind next, or for a test that needs an address
     * where nothing answers.
     */
    public static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Removes the folder of a server that failed to start (when it was created at all) and returns the failure to
     * throw, unchecked; a failure to remove the folder is added to it as suppressed.
     */
    static RuntimeException removeAfterFailedStart(Path root, Exception failure)
    {
        if (root != null) {
            try {
                deleteRecursively(root, ALLOW_INSECURE);
            }
            catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
            }
        }
        return failure instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) failure;
    }
}
