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
package io.trino.plugin.paimon.metadata;

import io.trino.plugin.paimon.format.schema.DataType;
import io.trino.plugin.paimon.format.schema.DataType.BigIntType;
import io.trino.plugin.paimon.format.schema.DataType.DecimalType;
import io.trino.plugin.paimon.format.schema.DataType.DoubleType;
import io.trino.plugin.paimon.format.schema.DataType.FloatType;
import io.trino.plugin.paimon.format.schema.DataType.IntType;
import io.trino.plugin.paimon.format.schema.DataType.SmallIntType;
import io.trino.plugin.paimon.format.schema.DataType.TinyIntType;
import io.trino.plugin.paimon.format.schema.DataType.VarBinaryType;
import io.trino.plugin.paimon.format.schema.DataType.VarCharType;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The column type changes the connector makes: those where every value of the old type is a value of the new one,
 * so that a file written before is read under the new type without loss (the reader reads its column by field id
 * as the new type). Paimon 1.4.2 also allows narrowing and string conversions (its {@code DataTypeCasts} explicit
 * rules), which can fail or change values when old files are read; the connector refuses those.
 */
final class TypeWidening
{
    private TypeWidening() {}

    static void check(SchemaTableName tableName, String column, DataType from, DataType to)
    {
        if (!widens(from, to)) {
            throw new TrinoException(NOT_SUPPORTED, ("Table %s: cannot change column '%s' from %s to %s; the Paimon connector changes a column only to a type that holds every value " +
                    "of the old one: a larger integer type, REAL to DOUBLE, a longer VARCHAR or VARBINARY, a DECIMAL of higher precision and the same scale")
                    .formatted(tableName, column, from.typeName(), to.typeName()));
        }
    }

    static boolean widens(DataType from, DataType to)
    {
        return switch (from) {
            case TinyIntType _ -> to instanceof TinyIntType || to instanceof SmallIntType || to instanceof IntType || to instanceof BigIntType;
            case SmallIntType _ -> to instanceof SmallIntType || to instanceof IntType || to instanceof BigIntType;
            case IntType _ -> to instanceof IntType || to instanceof BigIntType;
            case BigIntType _ -> to instanceof BigIntType;
            case FloatType _ -> to instanceof FloatType || to instanceof DoubleType;
            case DoubleType _ -> to instanceof DoubleType;
            case VarCharType varchar -> to instanceof VarCharType target && target.length() >= varchar.length();
            case VarBinaryType varbinary -> to instanceof VarBinaryType target && target.length() >= varbinary.length();
            case DecimalType decimal -> to instanceof DecimalType target && target.scale() == decimal.scale() && target.precision() >= decimal.precision();
            default -> from.withNullable(true).equals(to.withNullable(true));
        };
    }
}
