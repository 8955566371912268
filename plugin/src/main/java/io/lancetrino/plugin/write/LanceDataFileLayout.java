package io.lancetrino.plugin.write;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.schema.LanceField;

import java.util.List;

/**
 * Which table field ids a data file of a given format version stores, in column order: every field (parents
 * included) for 2.0, leaves only for 2.1 and later. A packed struct is one column in every version: the writer
 * keeps its field metadata, so the file packs it and its children have no columns.
 */
final class LanceDataFileLayout
{
    private LanceDataFileLayout() {}

    static List<Integer> storedFieldIds(List<LanceField> fields, String fileFormatVersion)
    {
        boolean parentsHaveColumns = fileFormatVersion.equals("2.0");
        ImmutableList.Builder<Integer> ids = ImmutableList.builder();
        for (LanceField field : fields) {
            collect(field, parentsHaveColumns, ids);
        }
        return ids.build();
    }

    static int majorVersion(String fileFormatVersion)
    {
        return Integer.parseInt(fileFormatVersion.substring(0, fileFormatVersion.indexOf('.')));
    }

    static int minorVersion(String fileFormatVersion)
    {
        return Integer.parseInt(fileFormatVersion.substring(fileFormatVersion.indexOf('.') + 1));
    }

    private static void collect(LanceField field, boolean parentsHaveColumns, ImmutableList.Builder<Integer> ids)
    {
        if (field.isPackedStruct()) {
            ids.add(field.id());
            return;
        }
        if (field.children().isEmpty() || parentsHaveColumns) {
            ids.add(field.id());
        }
        for (LanceField child : field.children()) {
            collect(child, parentsHaveColumns, ids);
        }
    }
}
