package io.trino.plugin.paimon;

/** The table procedures of {@code ALTER TABLE ... EXECUTE}. */
public enum PaimonTableProcedureId
{
    OPTIMIZE,
    EXPIRE_SNAPSHOTS,
    REMOVE_ORPHAN_FILES,
}
