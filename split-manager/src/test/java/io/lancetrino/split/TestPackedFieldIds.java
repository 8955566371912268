package io.lancetrino.split;

import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.schema.LanceField;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

final class TestPackedFieldIds
{
    // id 0, ps 1 -> a 2, b 3, name 4, pt 5 -> x 6 (ps packed, pt not)
    private static final List<LanceField> FIELDS = List.of(
            leaf(0, -1, "id"),
            new LanceField(1, -1, "ps", "struct", true, Map.of("lance-encoding:packed", "true"), List.of(leaf(2, 1, "a"), leaf(3, 1, "b"))),
            leaf(4, -1, "name"),
            new LanceField(5, -1, "pt", "struct", true, Map.of(), List.of(leaf(6, 5, "x"))));

    @Test
    void testFormat21ListsThePackedStructItself()
    {
        // what the SDK wrote for 2.1 and 2.2 files
        assertThat(LanceSplitManager.packedFieldIds(FIELDS, file(2, 1, List.of(0, 1, 4, 6)))).containsExactly(1);
    }

    @Test
    void testFormat20ListsThePackedStructWithoutChildren()
    {
        // what the SDK wrote for 2.0 files: pt keeps its child, ps has none
        assertThat(LanceSplitManager.packedFieldIds(FIELDS, file(2, 0, List.of(0, 1, 4, 5, 6)))).containsExactly(1);
    }

    @Test
    void testUnpackedFilesHaveNone()
    {
        // a file written before the struct was packed (or by a writer that did not pack it) stores the leaves
        assertThat(LanceSplitManager.packedFieldIds(FIELDS, file(2, 1, List.of(0, 2, 3, 4, 6)))).isEmpty();
        assertThat(LanceSplitManager.packedFieldIds(FIELDS, file(2, 0, List.of(0, 1, 2, 3, 4, 5, 6)))).isEmpty();
    }

    private static DataFile file(int major, int minor, List<Integer> fields)
    {
        DataFile.Builder file = DataFile.newBuilder().setPath("f.lance").setFileMajorVersion(major).setFileMinorVersion(minor).addAllFields(fields);
        for (int i = 0; i < fields.size(); i++) {
            file.addColumnIndices(i);
        }
        return file.build();
    }

    private static LanceField leaf(int id, int parentId, String name)
    {
        return new LanceField(id, parentId, name, "int32", true, Map.of(), List.of());
    }
}
