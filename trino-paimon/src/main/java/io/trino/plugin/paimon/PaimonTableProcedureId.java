package io.trino.plugin.paimon;

/**
 * The table procedures of {@code ALTER TABLE ... EXECUTE}, by the name SQL gives them (lower case).
 */
public enum PaimonTableProcedureId
{
    OPTIMIZE,
    EXPIRE_SNAPSHOTS,
    REMOVE_ORPHAN_FILES,
}
