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
package io.trino.plugin.paimon.merge;

import io.trino.spi.TrinoException;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.RowType;

import java.util.List;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_INVALID_TABLE_OPTION;
import static java.util.Objects.requireNonNull;

/**
 * The {@code nested-key} fields of the rows of a nested table ({@code ARRAY<ROW>}). Paimon projects them into a
 * binary row, so two keys are equal when their bytes are: nulls equal nulls, floating point by raw bits.
 */
final class NestedKeyProjection
{
    private final int[] fields;
    private final ValueEquality[] equalities;

    NestedKeyProjection(RowType rowType, List<String> names, String context)
    {
        requireNonNull(rowType, "rowType is null");
        this.fields = new int[names.size()];
        this.equalities = new ValueEquality[names.size()];
        List<RowType.Field> rowFields = rowType.getFields();
        for (int i = 0; i < names.size(); i++) {
            fields[i] = indexOf(rowFields, names.get(i));
            if (fields[i] < 0) {
                throw new TrinoException(PAIMON_INVALID_TABLE_OPTION, "%s: nested-key field '%s' is not a field of %s".formatted(context, names.get(i), rowType));
            }
            equalities[i] = ValueEquality.of(rowFields.get(fields[i]).getType(), ValueEquality.Mode.BINARY_ROW);
        }
    }

    Key keyOf(SqlRow row)
    {
        return new Key(row);
    }

    private static int indexOf(List<RowType.Field> fields, String name)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().orElse("").equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The key of one nested row, a hash key. */
    final class Key
    {
        private final SqlRow row;

        private Key(SqlRow row)
        {
            this.row = requireNonNull(row, "row is null");
        }

        @Override
        public boolean equals(Object other)
        {
            if (!(other instanceof Key that)) {
                return false;
            }
            for (int i = 0; i < fields.length; i++) {
                if (!equalities[i].equal(row.getRawFieldBlock(fields[i]), row.getRawIndex(), that.row.getRawFieldBlock(fields[i]), that.row.getRawIndex())) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode()
        {
            int hash = 1;
            for (int i = 0; i < fields.length; i++) {
                hash = 31 * hash + equalities[i].hash(row.getRawFieldBlock(fields[i]), row.getRawIndex());
            }
            return hash;
        }
    }
}
