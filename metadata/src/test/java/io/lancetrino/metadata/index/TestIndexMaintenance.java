package io.lancetrino.metadata.index;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.proto.UUID;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TestIndexMaintenance
{
    private static final Manifest BASE = manifest(List.of(1, 2, 3), fragment(0, file("a.lance", 1, 2, 3)), fragment(1, file("b.lance", 1, 2, 3)));

    @Test
    void testDroppedColumnTakesItsIndexesWithIt()
    {
        Optional<IndexSection> indices = section(index("id_idx", 1, IndexKind.BTREE, 1, 0, 1), index("cat_idx", 2, IndexKind.BITMAP, 1, 0, 1));
        Manifest next = BASE.toBuilder().clearFields().addAllFields(fields(1, 3)).build();
        Transaction project = Transaction.newBuilder().setProject(Transaction.Project.newBuilder().addAllSchema(fields(1, 3))).build();

        assertThat(names(IndexMaintenance.next("t", BASE, indices, project, next))).containsExactly("id_idx");
        // the last index gone: no section at all
        Manifest withoutId = BASE.toBuilder().clearFields().addAllFields(fields(2)).build();
        assertThat(IndexMaintenance.next("t", BASE, section(index("id_idx", 1, IndexKind.BTREE, 1, 0, 1)), project, withoutId)).isEmpty();
    }

    @Test
    void testFragmentRewrittenInPlaceLeavesTheCoverageOfIndexesOnChangedFields()
    {
        Optional<IndexSection> indices = section(index("id_idx", 1, IndexKind.BTREE, 1, 0, 1), index("cat_idx", 2, IndexKind.BITMAP, 1, 0, 1));
        // fragment 0's field 2 now comes from a new file; fragment 1 only gained a deletion file
        DataFragment rewritten = fragment(0, file("a.lance", 1, 3), file("c.lance", 2));
        DataFragment deleted = fragment(1, file("b.lance", 1, 2, 3)).toBuilder().setDeletionFile(DeletionFile.newBuilder().setId(7)).build();
        Transaction update = Transaction.newBuilder().setUpdate(Transaction.Update.newBuilder().addUpdatedFragments(rewritten).addUpdatedFragments(deleted)).build();
        Manifest next = manifest(List.of(1, 2, 3), rewritten, deleted);

        IndexSection result = IndexMaintenance.next("t", BASE, indices, update, next).orElseThrow();
        assertThat(covered(result, "id_idx")).containsExactly(0, 1);
        assertThat(covered(result, "cat_idx")).containsExactly(1);
    }

    @Test
    void testFieldsModifiedUncoverTheUpdatedFragments()
    {
        Optional<IndexSection> indices = section(index("id_idx", 1, IndexKind.BTREE, 1, 0, 1), index("cat_idx", 2, IndexKind.BITMAP, 1, 0, 1));
        DataFragment updated = fragment(1, file("b.lance", 1, 2, 3));
        Transaction update = Transaction.newBuilder().setUpdate(Transaction.Update.newBuilder().addUpdatedFragments(updated).addFieldsModified(1)).build();

        IndexSection result = IndexMaintenance.next("t", BASE, indices, update, BASE).orElseThrow();
        assertThat(covered(result, "id_idx")).containsExactly(0);
        assertThat(covered(result, "cat_idx")).containsExactly(0, 1);
    }

    @Test
    void testSegmentsCoveringNoFragmentAreDroppedAsLanceDoes()
    {
        // two segments of one scalar index, one of them covering only a fragment the delete removed
        IndexMetadata old = index("id_idx", 1, IndexKind.BTREE, 1, 0);
        IndexMetadata delta = index("id_idx", 1, IndexKind.BTREE, 2, 1);
        Transaction delete = Transaction.newBuilder().setDelete(Transaction.Delete.newBuilder().addDeletedFragmentIds(0)).build();
        Manifest next = manifest(List.of(1, 2, 3), fragment(1, file("b.lance", 1, 2, 3)));
        assertThat(IndexMaintenance.next("t", BASE, section(old, delta), delete, next).orElseThrow().getIndicesList()).containsExactly(delta);

        // nothing covered any more: a scalar index keeps its oldest segment, a vector index goes
        Manifest empty = manifest(List.of(1, 2, 3));
        IndexMetadata vector = index("vec_idx", 3, IndexKind.VECTOR, 1, 0, 1);
        assertThat(IndexMaintenance.next("t", BASE, section(old, delta, vector), delete, empty).orElseThrow().getIndicesList()).containsExactly(old);
    }

    @Test
    void testCreateIndexReplacesSegmentsByNameOrUuid()
    {
        IndexMetadata first = index("id_idx", 1, IndexKind.BTREE, 1, 0);
        IndexMetadata other = index("cat_idx", 2, IndexKind.BITMAP, 1, 0);
        IndexMetadata rebuilt = index("id_idx", 1, IndexKind.BTREE, 2, 0, 1);
        Transaction create = Transaction.newBuilder().setCreateIndex(Transaction.CreateIndex.newBuilder().addNewIndices(rebuilt)).build();
        assertThat(IndexMaintenance.next("t", BASE, section(first, other), create, BASE).orElseThrow().getIndicesList()).containsExactly(other, rebuilt);

        Transaction drop = Transaction.newBuilder().setCreateIndex(Transaction.CreateIndex.newBuilder().addRemovedIndices(other)).build();
        assertThat(IndexMaintenance.next("t", BASE, section(first, other), drop, BASE).orElseThrow().getIndicesList()).containsExactly(first);
    }

    @Test
    void testAppendKeepsIndexesAndOverwriteDropsThem()
    {
        Optional<IndexSection> indices = section(index("id_idx", 1, IndexKind.BTREE, 1, 0, 1));
        DataFragment appended = fragment(2, file("d.lance", 1, 2, 3));
        Transaction append = Transaction.newBuilder().setAppend(Transaction.Append.newBuilder().addFragments(appended)).build();
        Manifest next = manifest(List.of(1, 2, 3), fragment(0, file("a.lance", 1, 2, 3)), fragment(1, file("b.lance", 1, 2, 3)), appended);
        assertThat(IndexMaintenance.next("t", BASE, indices, append, next)).isEqualTo(indices);

        Transaction overwrite = Transaction.newBuilder().setOverwrite(Transaction.Overwrite.newBuilder()).build();
        assertThat(IndexMaintenance.next("t", BASE, indices, overwrite, next)).isEmpty();
    }

    private static List<String> names(Optional<IndexSection> section)
    {
        return section.orElseThrow().getIndicesList().stream().map(IndexMetadata::getName).toList();
    }

    private static List<Integer> covered(IndexSection section, String name)
    {
        IndexMetadata index = section.getIndicesList().stream().filter(candidate -> candidate.getName().equals(name)).findFirst().orElseThrow();
        return FragmentBitmaps.covered("t", index).orElseThrow().stream().boxed().toList();
    }

    private static Optional<IndexSection> section(IndexMetadata... indices)
    {
        return Optional.of(IndexSection.newBuilder().addAllIndices(List.of(indices)).build());
    }

    private static IndexMetadata index(String name, int field, IndexKind kind, long datasetVersion, int... fragments)
    {
        return IndexMetadata.newBuilder()
                .setUuid(UUID.newBuilder().setUuid(ByteString.copyFromUtf8("%-16s".formatted(name + datasetVersion))))
                .setName(name)
                .addFields(field)
                .setDatasetVersion(datasetVersion)
                .setFragmentBitmap(FragmentBitmaps.serialize(RoaringBitmap.bitmapOf(fragments)))
                .setIndexDetails(Any.newBuilder().setTypeUrl(kind.typeUrl()))
                .build();
    }

    private static Manifest manifest(List<Integer> fieldIds, DataFragment... fragments)
    {
        return Manifest.newBuilder().addAllFields(fields(fieldIds.stream().mapToInt(Integer::intValue).toArray())).addAllFragments(List.of(fragments)).build();
    }

    private static List<Field> fields(int... ids)
    {
        return java.util.Arrays.stream(ids).mapToObj(id -> Field.newBuilder().setId(id).setParentId(-1).setName("c" + id).build()).toList();
    }

    private static DataFragment fragment(long id, DataFile... files)
    {
        return DataFragment.newBuilder().setId(id).addAllFiles(List.of(files)).setPhysicalRows(10).build();
    }

    private static DataFile file(String path, int... fields)
    {
        DataFile.Builder file = DataFile.newBuilder().setPath(path);
        for (int field : fields) {
            file.addFields(field);
        }
        return file.build();
    }
}
