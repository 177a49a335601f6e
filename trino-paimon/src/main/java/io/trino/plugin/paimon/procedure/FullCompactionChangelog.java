package io.trino.plugin.paimon.procedure;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.merge.KeyValueLayout;
import io.trino.plugin.paimon.merge.RecordComparator;
import io.trino.plugin.paimon.merge.ValueEquality;
import io.trino.plugin.paimon.read.BucketCompactionReader;
import io.trino.plugin.paimon.write.CompactedRunWriter;
import io.trino.spi.Page;
import io.trino.spi.PageBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.List;

import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * A full compaction of a bucket of a {@code changelog-producer} = {@code full-compaction} table, which writes the
 * bucket's changelog as Paimon's full compaction does: for each key, the record it had at the highest level before (the
 * state the previous full compaction published) against the merged record after. A key whose only record is the one
 * at the highest level did not change and gives nothing. Otherwise a key without a record there gives +I of the merged
 * record, unless that is a retraction; a key with one gives -D of the old record when the merge retracts it, else -U of
 * the old record and +U of the merged one, a pair left out under {@code changelog-producer.row-deduplicate} when their
 * values are equal (the fields in {@code row-deduplicate-ignore-fields} aside). The changelog records keep the sequence
 * numbers of the records they show.
 * <p>
 * Three readers walk the bucket in key order: the merge of all its files (written, without retractions, as the new
 * highest level), the highest level alone (one record per key, as it was), and the merge of the other files, read only
 * to know which keys have records besides the highest level's.
 */
final class FullCompactionChangelog
{
    private final List<Type> types;
    private final KeyValueLayout layout;
    private final RecordComparator comparator;
    private final int[] comparedChannels;
    private final ValueEquality[] equalities;
    private final boolean rowDeduplicate;

    /**
     * @param types the types of the key-value layout's channels: keys, sequence number, row kind, table columns
     * @param comparedChannels the value channels row deduplication compares
     */
    FullCompactionChangelog(List<Type> types, KeyValueLayout layout, RecordComparator comparator, boolean rowDeduplicate, int[] comparedChannels)
    {
        this.types = ImmutableList.copyOf(types);
        this.layout = requireNonNull(layout, "layout is null");
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.rowDeduplicate = rowDeduplicate;
        this.comparedChannels = comparedChannels.clone();
        this.equalities = new ValueEquality[comparedChannels.length];
        for (int i = 0; i < comparedChannels.length; i++) {
            // Paimon compares the rows with its generated record equaliser
            equalities[i] = ValueEquality.of(types.get(comparedChannels[i]), ValueEquality.Mode.RECORD_EQUALISER);
        }
    }

    /** Writes the merged records and the changelog, and closes the readers. */
    void compact(BucketCompactionReader merged, BucketCompactionReader highestLevel, BucketCompactionReader otherLevels, CompactedRunWriter writer)
    {
        try (merged; highestLevel; otherLevels) {
            Cursor before = new Cursor(highestLevel);
            Cursor others = new Cursor(otherLevels);
            PageBuilder changelog = new PageBuilder(types);
            for (Page page = merged.nextPage(); page != null; page = merged.nextPage()) {
                Block kinds = page.getBlock(layout.kindChannel());
                int[] kept = new int[page.getPositionCount()];
                int keptCount = 0;
                for (int position = 0; position < page.getPositionCount(); position++) {
                    boolean retract = KeyValueLayout.isRetract(TINYINT.getByte(kinds, position));
                    if (!retract) {
                        kept[keptCount++] = position;
                    }
                    // a highest-level key that the merge left out entirely is gone
                    while (before.isBefore(page, position)) {
                        append(changelog, before.page(), before.position(), KeyValueLayout.DELETE);
                        before.next();
                    }
                    boolean hadRecord = before.isAt(page, position);
                    boolean changed = others.skipTo(page, position);
                    if (hadRecord && !changed) {
                        before.next();
                        continue;
                    }
                    if (!hadRecord) {
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
                    if (hadRecord) {
                        before.next();
                    }
                    if (changelog.isFull()) {
                        writer.writeChangelog(changelog.build());
                        changelog.reset();
                    }
                }
                if (keptCount > 0) {
                    writer.write(keptCount == page.getPositionCount() ? page : page.getPositions(kept, 0, keptCount));
                }
            }
            while (before.hasRecord()) {
                append(changelog, before.page(), before.position(), KeyValueLayout.DELETE);
                before.next();
            }
            if (!changelog.isEmpty()) {
                writer.writeChangelog(changelog.build());
            }
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
                types.get(channel).appendTo(page.getBlock(channel), position, changelog.getBlockBuilder(channel));
            }
        }
    }

    /** A position in the records of one reader, in key order. */
    private final class Cursor
    {
        private final BucketCompactionReader reader;
        private Page page;
        private int position;

        Cursor(BucketCompactionReader reader)
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
