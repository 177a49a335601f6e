package io.trino.plugin.paimon.merge;

/**
 * How the records of one key become one row (Paimon's {@code merge-engine}, merge-semantics §4-§7).
 */
public enum MergeEngine
{
    DEDUPLICATE, PARTIAL_UPDATE, AGGREGATION, FIRST_ROW
}
