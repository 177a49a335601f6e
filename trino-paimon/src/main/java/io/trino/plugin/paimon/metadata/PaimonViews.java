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

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.trino.plugin.paimon.catalog.PaimonCatalog;
import io.trino.plugin.paimon.catalog.PaimonView;
import io.trino.plugin.paimon.format.schema.DataField;
import io.trino.plugin.paimon.table.TypeMapping;
import io.trino.spi.TrinoException;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorViewDefinition;
import io.trino.spi.connector.ConnectorViewDefinition.ViewColumn;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.TypeManager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.plugin.paimon.table.TypeMapping.toPaimonType;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * Paimon views seen as Trino views. A view is read with the query of Trino's dialect when it has one, else with its
 * default query (Spark's or Flink's SQL, which Trino runs when it is standard enough), as its invoker: Paimon views
 * carry no definer. A view Trino creates stores its SQL as the default query and as the {@code trino} dialect.
 * Names in a view's SQL resolve against the view's own catalog and schema, as Spark and Flink resolve them.
 */
public class PaimonViews
{
    private final PaimonCatalog catalog;
    private final TypeManager typeManager;
    private final TypeMapping typeMapping;
    private final String catalogName;

    @Inject
    public PaimonViews(PaimonCatalog catalog, TypeManager typeManager, CatalogName catalogName)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
        this.typeMapping = new TypeMapping(typeManager.getTypeOperators());
        this.catalogName = catalogName.toString();
    }

    public List<SchemaTableName> listViews(ConnectorSession session, List<String> databases)
    {
        ImmutableList.Builder<SchemaTableName> views = ImmutableList.builder();
        for (String database : databases) {
            for (String view : catalog.listViews(session, database)) {
                views.add(new SchemaTableName(database, view));
            }
        }
        return views.build();
    }

    public Map<SchemaTableName, ConnectorViewDefinition> getViews(ConnectorSession session, List<String> databases)
    {
        ImmutableMap.Builder<SchemaTableName, ConnectorViewDefinition> views = ImmutableMap.builder();
        for (SchemaTableName name : listViews(session, databases)) {
            // a view dropped since it was listed is left out
            getView(session, name).ifPresent(view -> views.put(name, view));
        }
        return views.buildOrThrow();
    }

    public Optional<ConnectorViewDefinition> getView(ConnectorSession session, SchemaTableName viewName)
    {
        return catalog.loadView(session, viewName).map(view -> new ConnectorViewDefinition(
                view.trinoQuery(),
                Optional.of(catalogName),
                Optional.of(viewName.getSchemaName()),
                view.fields().stream()
                        .map(field -> new ViewColumn(field.name(), typeMapping.toTrinoType(field).getTypeId(), field.description()))
                        .collect(toImmutableList()),
                view.comment(),
                Optional.empty(),
                true,
                ImmutableList.of()));
    }

    public void createView(ConnectorSession session, SchemaTableName viewName, ConnectorViewDefinition definition, Map<String, Object> properties, boolean replace)
    {
        if (!properties.isEmpty()) {
            throw new TrinoException(NOT_SUPPORTED, "View %s: Paimon views have no properties: %s".formatted(viewName, properties.keySet()));
        }
        // the view's SQL will be resolved against the view's own schema, by Trino and by Spark or Flink alike
        boolean sameContext = definition.getCatalog().map(catalogName::equals).orElse(true)
                && definition.getSchema().map(viewName.getSchemaName()::equals).orElse(true);
        if (!sameContext) {
            throw new TrinoException(NOT_SUPPORTED, "View %s: a Paimon view resolves the names in its query against its own schema %s.%s, not the session's %s.%s; qualify the names in the query or use that schema"
                    .formatted(viewName, catalogName, viewName.getSchemaName(), definition.getCatalog().orElse(""), definition.getSchema().orElse("")));
        }
        AtomicInteger highestFieldId = new AtomicInteger(definition.getColumns().size() - 1);
        List<DataField> fields = new ArrayList<>();
        for (int index = 0; index < definition.getColumns().size(); index++) {
            ViewColumn column = definition.getColumns().get(index);
            fields.add(new DataField(index, column.getName(), toPaimonType(typeManager.getType(column.getType()), true, highestFieldId), column.getComment(), Optional.empty()));
        }
        String sql = definition.getOriginalSql();
        PaimonView view = new PaimonView(fields, sql, ImmutableMap.of(PaimonView.TRINO_DIALECT, sql), definition.getComment(), ImmutableMap.of());
        catalog.createView(session, viewName, view, replace);
    }

    public void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        catalog.dropView(session, viewName);
    }

    public void renameView(ConnectorSession session, SchemaTableName from, SchemaTableName to)
    {
        catalog.renameView(session, from, to);
    }

    public void setViewComment(ConnectorSession session, SchemaTableName viewName, Optional<String> comment)
    {
        catalog.setViewComment(session, viewName, comment);
    }

    public void setViewColumnComment(ConnectorSession session, SchemaTableName viewName, String columnName, Optional<String> comment)
    {
        catalog.setViewColumnComment(session, viewName, columnName, comment);
    }
}
