package io.trino.plugin.paimon.merge;

import io.trino.spi.Page;
import io.trino.spi.TrinoException;

import java.util.Arrays;

import static io.trino.plugin.paimon.PaimonErrorCode.PAIMON_MERGE_ERROR;

/**
 * Partial update without sequence groups (merge-semantics §5.1): every column takes its newest non-null value in
 * merge order, so a null never overwrites. Retractions are refused unless {@code ignore-delete} skips them or
 * {@code partial-update.remove-record-on-delete} makes a -D restart the row (keeping only its NOT NULL columns)
 * and a -U change nothing. The key yields no row when its newest change was such a delete or no add was seen.
 * Each column's value is kept as a reference to the record it came from; nothing is copied until output.
 */
public final class PartialUpdateMergeFunction
{
    private PartialUpdateMergeFunction() {}

    public static final String RETRACT_ERROR = """
            By default, Partial update can not accept delete records, you can choose one of the following solutions:
            1. Configure 'ignore-delete' to ignore delete records.
            2. Configure 'partial-update.remove-record-on-delete' to remove the whole row when receiving delete records.
            3. Configure 'sequence-group's to retract partial columns. Also configure 'partial-update.remove-record-on-sequence-group' to remove the whole row when receiving deleted records of `specified sequence group`.""";

    /**
     * @param valueChannels for each output column, its channel in the merged pages
     * @param notNull for each output column, whether the column is NOT NULL (kept from a removing -D)
     */
    public static MergeFunction create(int[] valueChannels, boolean[] notNull, boolean ignoreDelete, boolean removeRecordOnDelete)
    {
        return new Function(valueChannels.clone(), notNull.clone(), ignoreDelete, removeRecordOnDelete);
    }

    private static final class Function
            implements MergeFunction
    {
        private final int[] valueChannels;
        private final boolean[] notNull;
        private final boolean ignoreDelete;
        private final boolean removeRecordOnDelete;
        private final Page[] pages;
        private final int[] positions;
        private boolean sawAdd;
        private boolean deleted;

        private Function(int[] valueChannels, boolean[] notNull, boolean ignoreDelete, boolean removeRecordOnDelete)
        {
            this.valueChannels = valueChannels;
            this.notNull = notNull;
            this.ignoreDelete = ignoreDelete;
            this.removeRecordOnDelete = removeRecordOnDelete;
            this.pages = new Page[valueChannels.length];
            this.positions = new int[valueChannels.length];
        }

        @Override
        public void reset()
        {
            Arrays.fill(pages, null);
            sawAdd = false;
            deleted = false;
        }

        @Override
        public void add(Page page, int position, byte kind)
        {
            if (KeyValueLayout.isRetract(kind)) {
                if (ignoreDelete) {
                    return;
                }
                if (!removeRecordOnDelete) {
                    throw new TrinoException(PAIMON_MERGE_ERROR, RETRACT_ERROR);
                }
                if (kind == KeyValueLayout.DELETE) {
                    // the row restarts with only the NOT NULL columns of the delete record
                    for (int column = 0; column < valueChannels.length; column++) {
                        if (notNull[column]) {
                            pages[column] = page;
                            positions[column] = position;
                        }
                        else {
                            pages[column] = null;
                        }
                    }
                    deleted = true;
                }
                return;
            }
            sawAdd = true;
            deleted = false;
            for (int column = 0; column < valueChannels.length; column++) {
                if (!page.getBlock(valueChannels[column]).isNull(position)) {
                    pages[column] = page;
                    positions[column] = position;
                }
            }
        }

        @Override
        public void emitResult(OutputPageBuilder output)
        {
            if (sawAdd && !deleted) {
                output.addColumns(pages, positions);
            }
        }
    }
}
