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

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;

import java.nio.file.Path;
import java.util.List;

/**
 * A Paimon Java 1.4.2 writer in a process of its own, for tests of two committers over one warehouse: commits
 * {@code batches} batches into a table with columns {@code (p varchar, id integer, v varchar)}, batch {@code i}
 * holding the one row {@code (partition, i, 'java')}.
 * <p>
 * Arguments: warehouse folder, database, table, partition value, number of batches.
 */
public final class PaimonJavaBatchWriter
{
    private PaimonJavaBatchWriter() {}

    public static void main(String[] args)
            throws Exception
    {
        Path warehouse = Path.of(args[0]);
        String database = args[1];
        String table = args[2];
        String partition = args[3];
        int batches = Integer.parseInt(args[4]);
        try (PaimonJavaCatalog catalog = new PaimonJavaCatalog(warehouse)) {
            for (int i = 0; i < batches; i++) {
                PaimonJavaCatalog.write(catalog.getTable(database, table), List.of(GenericRow.of(BinaryString.fromString(partition), i, BinaryString.fromString("java"))));
            }
        }
        System.out.println("committed " + batches + " batches");
    }
}
