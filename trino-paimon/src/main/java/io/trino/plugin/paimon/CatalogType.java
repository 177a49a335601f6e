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
package io.trino.plugin.paimon;

/** Where a Paimon catalog keeps its list of databases and tables: {@code paimon.catalog.type}. */
public enum CatalogType
{
    /** A folder of {@code <database>.db/<table>} directories, Paimon's {@code filesystem} metastore. */
    FILESYSTEM,
    /** A Hive Metastore, as Paimon's {@code hive} metastore registers tables. */
    HIVE_METASTORE,
    /** Paimon's catalog tables in a JDBC database, as Paimon's {@code jdbc} metastore keeps them. */
    JDBC,
    /** A server of Paimon's REST catalog API. */
    REST,
}
