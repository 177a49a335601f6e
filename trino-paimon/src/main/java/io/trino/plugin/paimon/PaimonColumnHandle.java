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

import com.google.common.collect.ImmutableList;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * A top-level column, identified by its Paimon field id (stable across renames) and carrying its Paimon name
 * (which may differ in case from the lower-cased Trino column name); or a field nested in a {@code ROW} column, a
 * projection Trino pushed into the scan ({@code payload.inner.g}): then {@code path} holds the field indices into
 * {@code baseType}, the type of the column, and {@code type} is the type of the field. A projection reads only
 * that field's part of the column from the data files. {@code nullable} is the column's.
 */
public record PaimonColumnHandle(int fieldId, String name, Type type, boolean nullable, Type baseType, List<Integer> path)
        implements ColumnHandle
{
    public PaimonColumnHandle
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(baseType, "baseType is null");
        path = ImmutableList.copyOf(path);
        checkArgument(!path.isEmpty() || type.equals(baseType), "a whole column has the type of its column");
    }

    /** A whole column. */
    public PaimonColumnHandle(int fieldId, String name, Type type, boolean nullable)
    {
        this(fieldId, name, type, nullable, type, ImmutableList.of());
    }

    /** Whether this is a field nested in the column rather than the whole column. */
    public boolean isProjection()
    {
        return !path.isEmpty();
    }

    /** The whole column this handle reads from. */
    public PaimonColumnHandle baseColumn()
    {
        return isProjection() ? new PaimonColumnHandle(fieldId, name, baseType, nullable) : this;
    }

    /** The field at {@code fieldIndices} of this handle's {@code ROW} value. */
    public PaimonColumnHandle dereference(List<Integer> fieldIndices)
    {
        Type fieldType = type;
        for (int index : fieldIndices) {
            fieldType = ((RowType) fieldType).getFields().get(index).getType();
        }
        return new PaimonColumnHandle(fieldId, name, fieldType, nullable, baseType, ImmutableList.<Integer>builder().addAll(path).addAll(fieldIndices).build());
    }

    /** The column's name and, for a projection, the names of the fields it goes through: {@code payload.inner.g}. */
    public String qualifiedName()
    {
        StringBuilder text = new StringBuilder(name);
        Type current = baseType;
        for (int index : path) {
            RowType.Field field = ((RowType) current).getFields().get(index);
            text.append('.').append(field.getName().orElse("field" + index));
            current = field.getType();
        }
        return text.toString();
    }

    /**
     * The domains of a predicate on whole columns only: a domain on a projection bounds a nested field, which the
     * pruning of partitions, files and row groups by column must not take for the column's.
     */
    public static TupleDomain<PaimonColumnHandle> wholeColumnDomains(TupleDomain<? extends ColumnHandle> predicate)
    {
        return predicate.transformKeys(PaimonColumnHandle.class::cast)
                .filter((column, _) -> !column.isProjection());
    }
}
