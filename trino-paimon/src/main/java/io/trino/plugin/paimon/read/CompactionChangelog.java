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
package io.trino.plugin.paimon.read;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.ValueEquality;
import io.trino.spi.Page;
import io.trino.spi.PageBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static io.trino.plugin.paimon.merge.BlockValues.appendValue;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * The changelog a compaction writes beside its output, as Paimon's compactions write it for the table's changelog
 * producer. Three readers walk the compacted keys in key order: the compaction's merged records (the output), the
 * records of the state streaming readers last saw ("before"), and records whose keys trigger a changelog:
 * <ul>
 * <li>{@link Producer#FULL_COMPACTION} ({@code changelog-producer} = {@code full-compaction}): before is a key's record
 * at the highest level, and the trigger is any record of the other levels. A key whose only record is the one at the
 * highest level did not change and gives nothing; a highest-level key the merge left out entirely gives -D.</li>
 * <li>{@link Producer#LOOKUP} ({@code changelog-producer} = {@code lookup}): before is the key's record at the
 * shallowest level above 0, in the compaction or found above it by the lookup, and the trigger is a level-0 record:
 * keys without one give nothing.</li>
 * <li>{@link Producer#FIRST_ROW} (lookup changelog of a {@code first-row} table): a key with a level-0 record and no
 * record above level 0 in the compaction gives its record as it is (keys found above the output are dropped from the
 * output before, and give nothing).</li>
 * </ul>
 * Otherwise a triggered key without a before record (or whose before record is a retraction) gives +I of the merged
 * record, unless that is a retraction; a key with one gives -D of the old record when the merge retracts it, else -U
 * of the old record and +U of the merged one, a pair left out under {@code changelog-producer.row-deduplicate} when
 * their values are equal (the fields in {@code row-deduplicate-ignore-fields} aside). The changelog records keep the
 * sequence numbers of the records they show.
 */
public final class CompactionChangelog
{
    public enum Producer
    {
        FULL_COMPACTION, LOOKUP, FIRST_ROW
    }

    /** Key-value pages (key channels, sequence number, row kind, every table column) in key order, one record per key. */
    public interface Records
    {
        /** The next page; null after the last. */
        Page nextPage();
    }

    private final Producer producer;
    private final List<Type> types;
    private final KeyValueLayout layout;
    private final RecordComparator comparator;
    private final int[] comparedChannels;
    private final ValueEquality[] equalities;
    private final boolean rowDeduplicate;

    /**
     * @param valueTypes the types of the table's columns
     * @param comparedValues the table columns (by index) row deduplication compares
     */
    public CompactionChangelog(Producer producer, List<Type> keyTypes, List<Type> valueTypes, boolean rowDeduplicate, int[] comparedValues)
    {
        this.producer = requireNonNull(producer, "producer is null");
        this.types = ImmutableList.<Type>builder().addAll(keyTypes).add(BIGINT).add(TINYINT).addAll(valueTypes).build();
        int[] valueChannels = new int[valueTypes.size()];
        for (int i = 0; i < valueChannels.length; i++) {
            valueChannels[i] = keyTypes.size() + 2 + i;
        }
        this.layout = new KeyValueLayout(keyTypes.size(), new int[0], false, valueChannels);
        this.comparator = new RecordComparator(layout, keyTypes, List.of());
        this.rowDeduplicate = rowDeduplicate;
        this.comparedChannels = new int[comparedValues.length];
        this.equalities = new ValueEquality[comparedValues.length];
        for (int i = 0; i < comparedValues.length; i++) {
            comparedChannels[i] = valueChannels[comparedValues[i]];
            // Paimon compares the rows with its generated record equaliser
            equalities[i] = ValueEquality.of(valueTypes.get(comparedValues[i]), ValueEquality.Mode.RECORD_EQUALISER);
        }
    }

    /**
     * Passes the merged records to the output and their changelog to the changelog, each in key order.
     *
     * @param merged the compaction's merged records, retractions included
     * @param filter what of each page of merged records is the output (the rest gives no changelog either)
     * @param dropRetracts whether merged retractions are left out of the output (they still give changelog)
     * @param beforeRecords the records streaming readers last saw of the compacted keys
     * @param triggers records whose keys get a changelog
     */
    public void compact(Records merged, UnaryOperator<Page> filter, boolean dropRetracts, Records beforeRecords, Records triggers, Consumer<Page> output, Consumer<Page> changelogOutput)
    {
        Cursor before = new Cursor(beforeRecords);
        Cursor triggered = new Cursor(triggers);
        PageBuilder changelog = new PageBuilder(types);
        for (Page page = merged.nextPage(); page != null; page = merged.nextPage()) {
            page = filter.apply(page);
            Block kinds = page.getBlock(layout.kindChannel());
            int[] kept = new int[page.getPositionCount()];
            int keptCount = 0;
            for (int position = 0; position < page.getPositionCount(); position++) {
                boolean retract = KeyValueLayout.isRetract(TINYINT.getByte(kinds, position));
                if (!retract || !dropRetracts) {
                    kept[keptCount++] = position;
                }
                while (before.isBefore(page, position)) {
                    if (producer == Producer.FULL_COMPACTION) {
                        // a highest-level key that the merge left out entirely is gone
                        append(changelog, before.page(), before.position(), KeyValueLayout.DELETE);
                    }
                    before.next();
                }
                boolean hadRecord = before.isAt(page, position);
                if (triggered.skipTo(page, position)) {
                    boolean beforeIsAdd = hadRecord && !KeyValueLayout.isRetract(TINYINT.getByte(before.page().getBlock(layout.kindChannel()), before.position()));
                    appendChange(changelog, beforeIsAdd ? before : null, hadRecord, page, position, retract);
                }
                if (hadRecord) {
                    before.next();
                }
                if (changelog.isFull()) {
                    changelogOutput.accept(changelog.build());
                    changelog.reset();
                }
            }
            if (keptCount > 0) {
                output.accept(keptCount == page.getPositionCount() ? page : page.getPositions(kept, 0, keptCount));
            }
        }
        while (before.hasRecord()) {
            if (producer == Producer.FULL_COMPACTION) {
                append(changelog, before.page(), before.position(), KeyValueLayout.DELETE);
            }
            before.next();
        }
        if (!changelog.isEmpty()) {
            changelogOutput.accept(changelog.build());
        }
    }

    /**
     * The changelog of one triggered key.
     *
     * @param before the cursor at the key's before record when that is an add, else null
     * @param hadRecord whether the key had a before record at all
     */
    private void appendChange(PageBuilder changelog, Cursor before, boolean hadRecord, Page page, int position, boolean retract)
    {
        if (producer == Producer.FIRST_ROW) {
            if (!hadRecord) {
                // the first row of a new key, with the row kind it was written with
                append(changelog, page, position, TINYINT.getByte(page.getBlock(layout.kindChannel()), position));
            }
            return;
        }
        if (before == null) {
            if (!retract) {
                append(changelog, page, position, KeyValueLayout.INSERT);
            }
        }
        else if (retract) {
            append(changelog, before.page(), before.position(), KeyValueLayout.DELETE);
        }
        else if (!rowDeduplicate || !sameValues(before.page(), before.position(), page, position)) {
            append(changelog, before.page(), before.position(), KeyValueLayout.UPDATE_BEFORE);
            append(changelog, page, position, KeyValueLayout.UPDATE_AFTER);
        }
    }

    private boolean sameValues(Page left, int leftPosition, Page right, int rightPosition)
    {
        for (int i = 0; i < comparedChannels.length; i++) {
            int channel = comparedChannels[i];
            if (!equalities[i].equal(left.getBlock(channel), leftPosition, right.getBlock(channel), rightPosition)) {
                return false;
            }
        }
        return true;
    }

    private void append(PageBuilder changelog, Page page, int position, byte kind)
    {
        changelog.declarePosition();
        for (int channel = 0; channel < types.size(); channel++) {
            if (channel == layout.kindChannel()) {
                TINYINT.writeByte(changelog.getBlockBuilder(channel), kind);
            }
            else {
                appendValue(page.getBlock(channel), position, changelog.getBlockBuilder(channel));
            }
        }
    }

    /** A position in the records of one reader, in key order. */
    private final class Cursor
    {
        private final Records reader;
        private Page page;
        private int position;

        Cursor(Records reader)
        {
            this.reader = requireNonNull(reader, "reader is null");
            this.page = reader.nextPage();
        }

        boolean hasRecord()
        {
            return page != null;
        }

        Page page()
        {
            return page;
        }

        int position()
        {
            return position;
        }

        void next()
        {
            position++;
            if (position == page.getPositionCount()) {
                page = reader.nextPage();
                position = 0;
            }
        }

        /** Whether the current record's key sorts before the given one. */
        boolean isBefore(Page keys, int keyPosition)
        {
            return page != null && comparator.compareKeys(page, position, keys, keyPosition) < 0;
        }

        boolean isAt(Page keys, int keyPosition)
        {
            return page != null && comparator.compareKeys(page, position, keys, keyPosition) == 0;
        }

        /** Moves past the records whose keys sort before the given one; whether a record with that key follows. */
        boolean skipTo(Page keys, int keyPosition)
        {
            while (isBefore(keys, keyPosition)) {
                next();
            }
            return isAt(keys, keyPosition);
        }
    }
}
