package io.lancetrino.split;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;

import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A data file of a fragment with its resolved location and its field-id to column mapping.
 *
 * @param fieldIds table field ids stored in the file ({@code -2} = tombstoned)
 * @param columnIndices the file column of each entry of {@code fieldIds}; empty for legacy files
 * @param packedFieldIds structs the file stores as one column (packed structs): their children have no columns
 * @param blobFieldIds blob columns ({@code lance-encoding:blob}) the file stores
 */
public record LanceDataFile(String location, List<Integer> fieldIds, List<Integer> columnIndices, int majorVersion, int minorVersion, Set<Integer> packedFieldIds, Set<Integer> blobFieldIds)
{
    public LanceDataFile
    {
        requireNonNull(location, "location is null");
        fieldIds = ImmutableList.copyOf(fieldIds);
        columnIndices = ImmutableList.copyOf(columnIndices);
        packedFieldIds = ImmutableSet.copyOf(packedFieldIds);
        blobFieldIds = ImmutableSet.copyOf(blobFieldIds);
    }

    public LanceDataFile(String location, List<Integer> fieldIds, List<Integer> columnIndices, int majorVersion, int minorVersion)
    {
        this(location, fieldIds, columnIndices, majorVersion, minorVersion, Set.of(), Set.of());
    }

    /**
     * 2.0 files give every field a column, parents included; 2.1 and later give columns to leaves only.
     */
    public boolean parentsHaveColumns()
    {
        return majorVersion == 0 || (majorVersion == 2 && minorVersion == 0);
    }

    /**
     * The field id stored in the given physical column, or {@code -1} if none.
     */
    public int fieldIdOfColumn(int column)
    {
        if (columnIndices.isEmpty()) {
            return column < fieldIds.size() ? fieldIds.get(column) : -1;
        }
        for (int i = 0; i < columnIndices.size(); i++) {
            if (columnIndices.get(i) == column) {
                return fieldIds.get(i);
            }
        }
        return -1;
    }
}
