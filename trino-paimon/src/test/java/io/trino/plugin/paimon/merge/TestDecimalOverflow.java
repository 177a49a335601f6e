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

import io.trino.plugin.paimon.merge.MergeEngineSpec.FieldAggregation;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.SqlDecimal;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.trino.plugin.paimon.merge.TypeValues.objectValue;
import static io.trino.spi.type.DecimalType.createDecimalType;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A DECIMAL {@code sum} or {@code product} that no longer fits its precision becomes NULL (merge-semantics §7.2,
 * §7.3). Paimon's aggregators treat a NULL accumulator as absent ({@code agg(null, in) = in},
 * {@code retract(null, in) = -in} for sum), so later records of the same key start it again.
 */
final class TestDecimalOverflow
{
    private static final DecimalType DECIMAL_4_2 = createDecimalType(4, 2);

    @Test
    void sumOverflowIsNull()
    {
        FieldAggregator sum = aggregator("sum");
        sum.add(decimal("99.00"), 0);
        sum.add(decimal("2.00"), 0);
        assertThat(result(sum)).isNull();
    }

    @Test
    void sumStartsAgainAfterOverflow()
    {
        FieldAggregator sum = aggregator("sum");
        sum.add(decimal("99.00"), 0);
        sum.add(decimal("2.00"), 0);
        sum.add(decimal("3.50"), 0);
        assertThat(result(sum)).isEqualTo(new BigDecimal("3.50"));
    }

    @Test
    void sumRetractionAfterOverflowNegatesTheInput()
    {
        FieldAggregator sum = aggregator("sum");
        sum.add(decimal("99.00"), 0);
        sum.add(decimal("2.00"), 0);
        sum.retract(decimal("1.25"), 0);
        assertThat(result(sum)).isEqualTo(new BigDecimal("-1.25"));
    }

    @Test
    void productStartsAgainAfterOverflow()
    {
        FieldAggregator product = aggregator("product");
        product.add(decimal("50.00"), 0);
        product.add(decimal("3.00"), 0);
        assertThat(result(product)).isNull();
        product.add(decimal("4.00"), 0);
        assertThat(result(product)).isEqualTo(new BigDecimal("4.00"));
    }

    private static FieldAggregator aggregator(String function)
    {
        FieldAggregator aggregator = FieldAggregatorFactory.create(function, FieldAggregation.NONE, DECIMAL_4_2, 0, "t");
        aggregator.reset();
        return aggregator;
    }

    private static Page decimal(String value)
    {
        BlockBuilder builder = DECIMAL_4_2.createBlockBuilder(null, 1);
        DECIMAL_4_2.writeLong(builder, new BigDecimal(value).unscaledValue().longValueExact());
        return new Page(builder.build());
    }

    private static BigDecimal result(FieldAggregator aggregator)
    {
        Page[] pages = new Page[1];
        int[] positions = new int[1];
        BlockBuilder computed = DECIMAL_4_2.createBlockBuilder(null, 1);
        aggregator.result(pages, positions, 0, computed);
        if (pages[0] == null) {
            return null;
        }
        Block block = pages[0] == OutputPageBuilder.COMPUTED ? computed.build() : pages[0].getBlock(0);
        return ((SqlDecimal) objectValue(DECIMAL_4_2, block, positions[0])).toBigDecimal();
    }
}
