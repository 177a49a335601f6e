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

import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.local.LocalFileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.testing.PaimonQueryRunner.WAREHOUSE_DIRECTORY;

/**
 * A temporary local root, removed with everything in it on close: the warehouse is {@code <root>/warehouse},
 * reached by our code as {@code local:///warehouse} through {@link #fileSystem()} and written by Paimon Java
 * through {@link #paimon()} (opened on first use). Tests that only need scratch space use the root alone.
 */
public final class TempWarehouse
        implements AutoCloseable
{
    private final Path root;
    private PaimonJavaCatalog paimon;

    private TempWarehouse(Path root)
    {
        this.root = root;
    }

    public static TempWarehouse create()
    {
        try {
            return new TempWarehouse(Files.createTempDirectory("paimon-test"));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path root()
    {
        return root;
    }

    /** {@code <root>/warehouse}, created on first use. */
    public Path warehouse()
    {
        try {
            return Files.createDirectories(root.resolve(WAREHOUSE_DIRECTORY));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Our file system over the root: the warehouse is {@code local:///warehouse}. */
    public TrinoFileSystem fileSystem()
    {
        return new LocalFileSystem(root);
    }

    /** Paimon Java's catalog over the warehouse. */
    public PaimonJavaCatalog paimon()
    {
        if (paimon == null) {
            paimon = new PaimonJavaCatalog(warehouse());
        }
        return paimon;
    }

    @Override
    public void close()
            throws Exception
    {
        try {
            if (paimon != null) {
                paimon.close();
            }
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }
}
