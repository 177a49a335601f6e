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

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INTERNAL_ERROR;
import static io.trino.spi.ErrorType.USER_ERROR;

public enum PaimonErrorCode
        implements ErrorCodeSupplier
{
    /** A metadata file (schema, snapshot, manifest) is missing, truncated or not what Paimon writes. */
    PAIMON_INVALID_METADATA(0, EXTERNAL),
    /** A column's Paimon type has no Trino counterpart. */
    PAIMON_UNSUPPORTED_TYPE(1, EXTERNAL),
    /** The file system failed while listing, reading or writing the warehouse. */
    PAIMON_FILESYSTEM_ERROR(2, EXTERNAL),
    /** A table option stored in the schema has a value Paimon would reject. */
    PAIMON_INVALID_TABLE_OPTION(3, EXTERNAL),
    /** A table property given in SQL is not valid for a Paimon table. */
    PAIMON_INVALID_TABLE_PROPERTY(4, USER_ERROR),
    /** The catalog configuration asks for something the connector does not offer. */
    PAIMON_UNSUPPORTED_CONFIGURATION(5, USER_ERROR),
    // 6 was a schema-level code that nothing raised; numbers are never reused
    // 7 was a commit conflict code: a lost race is Trino's TRANSACTION_CONFLICT everywhere
    /** The records of a key cannot be merged under the table's merge engine (e.g. a retraction it refuses). */
    PAIMON_MERGE_ERROR(8, EXTERNAL),
    /** A data file is missing, truncated or not what its manifest entry describes. */
    PAIMON_BAD_DATA(9, EXTERNAL),
    /** A commit's snapshot may or may not have been published: the file system failed and reading it back failed too. */
    PAIMON_COMMIT_STATE_UNKNOWN(10, EXTERNAL),
    /** A data file a write produced cannot be described as Paimon requires (e.g. a NULL in a NOT NULL key); it is not committed. */
    PAIMON_INVALID_DATA_FILE(11, INTERNAL_ERROR),
    /** The connector broke one of its own invariants (a value it wrote cannot be encoded, a handle it built is inconsistent). */
    PAIMON_INTERNAL_ERROR(12, INTERNAL_ERROR),
    /** The catalog service (a metastore, a database, a server) cannot be reached or refused a request. */
    PAIMON_CATALOG_ERROR(13, EXTERNAL);

    // 0x0520_0000: not used by any connector bundled with Trino
    private static final int ERROR_CODE_BASE = 0x0520_0000;

    private final ErrorCode errorCode;

    PaimonErrorCode(int code, ErrorType type)
    {
        errorCode = new ErrorCode(code + ERROR_CODE_BASE, name(), type);
    }

    @Override
    public ErrorCode toErrorCode()
    {
        return errorCode;
    }
}
