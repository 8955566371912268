package io.lancetrino.plugin.write;

import java.util.Set;

/**
 * The statement behind a row-level change. Trino plans DELETE, UPDATE and MERGE all as a merge and does not tell the
 * connector which statement it runs, so the kind is inferred from what Trino 483 shows the connector (checked by
 * {@code TestLanceTransactions}):
 * <ul>
 *     <li>{@code beginMerge}'s update case columns: none for DELETE, exactly case 0 for UPDATE, and for MERGE one entry
 *     per {@code WHEN ... THEN UPDATE} clause, keyed by the clause's position;</li>
 *     <li>only MERGE's analysis asks for the metadata of every column of the target (for column defaults), before
 *     {@code beginMerge}; DELETE and UPDATE ask for the row id column's only. This tells an UPDATE from a MERGE whose
 *     first clause is an update, and a DELETE from a MERGE without update clauses;</li>
 *     <li>as a check on the data: only MERGE gives the sinks plain insert rows, and plain delete rows that went through
 *     Trino's merge row processor (case number -1; a DELETE statement's rows carry case 0).</li>
 * </ul>
 */
public enum RowChangeStatement
{
    DELETE,
    UPDATE,
    MERGE;

    public static RowChangeStatement infer(Set<Integer> updateCases, boolean dataColumnMetadataRead)
    {
        if (dataColumnMetadataRead || !(updateCases.isEmpty() || updateCases.equals(Set.of(0)))) {
            return MERGE;
        }
        return updateCases.isEmpty() ? DELETE : UPDATE;
    }

    /**
     * @param insertRows rows the sinks received as plain inserts (not the new image of an updated row)
     * @param mergeDeleteRows rows the sinks received as plain deletes from Trino's merge row processor
     */
    public RowChangeStatement confirm(long insertRows, long mergeDeleteRows)
    {
        return insertRows > 0 || mergeDeleteRows > 0 ? MERGE : this;
    }
}
