package io.lancetrino.metadata;

import com.google.protobuf.ByteString;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Manifest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Changes of a version from hand-built manifests.
 */
final class TestVersionChanges
{
    private static final Field ID = field(0, -1, "id", "int64");
    private static final Field NAME = field(1, -1, "name", "string");

    @Test
    void testFirstVersionAgainstEmptyManifest()
    {
        Manifest first = Manifest.newBuilder()
                .addFields(ID).addFields(NAME)
                .addFragments(fragment(0, 1000, "a.lance"))
                .putConfig("lance.auto_cleanup.interval", "20")
                .putTableMetadata("comment", "people and their names")
                .build();
        VersionChanges changes = VersionChanges.initial(first);
        assertThat(changes.describe()).containsExactly(
                "added column id (id 0)",
                "added column name (id 1)",
                "added fragment 0 (1000 rows)",
                "config lance.auto_cleanup.interval set to 20",
                "table metadata comment set to 'people and their names'");
        assertThat(changes.changes().get(2)).isEqualTo(new VersionChanges.FragmentAdded(0, 1000, 0));
        assertThat(VersionChanges.initial(Manifest.getDefaultInstance()).isEmpty()).isTrue();
    }

    @Test
    void testAppendDeleteAndRemove()
    {
        Manifest v1 = table(fragment(0, 1000, "a.lance"), fragment(1, 40, "b.lance"));
        Manifest appended = table(fragment(0, 1000, "a.lance"), fragment(1, 40, "b.lance"), fragment(2, 1, "c.lance"));
        assertThat(VersionChanges.between(v1, appended).describe()).containsExactly("added fragment 2 (1 row)");

        Manifest deleted = table(withDeletions(fragment(0, 1000, "a.lance"), 7), fragment(1, 40, "b.lance"));
        Manifest moreDeleted = table(withDeletions(fragment(0, 1000, "a.lance"), 12));
        assertThat(VersionChanges.between(v1, deleted).describe()).containsExactly("deleted 7 rows in fragment 0 (now 7 of 1000 deleted)");
        VersionChanges second = VersionChanges.between(deleted, moreDeleted);
        assertThat(second.describe()).containsExactly(
                "removed fragment 1 (40 rows)",
                "deleted 5 rows in fragment 0 (now 12 of 1000 deleted)");
        assertThat(second.changes()).containsExactly(
                new VersionChanges.FragmentRemoved(1, 40, 0),
                new VersionChanges.DeletionsChanged(0, 1000, 7, 12));
        // a removed fragment counts the rows it still had
        assertThat(VersionChanges.between(moreDeleted, table()).describe()).containsExactly("removed fragment 0 (988 rows)");
        assertThat(VersionChanges.between(moreDeleted, table(fragment(0, 1000, "a.lance"))).describe())
                .containsExactly("restored 12 rows in fragment 0 (now 0 of 1000 deleted)");
        assertThat(VersionChanges.between(v1, v1).isEmpty()).isTrue();
    }

    @Test
    void testFragmentIdReusedForOtherData()
    {
        Manifest before = table(fragment(0, 10, "a.lance"), fragment(1, 20, "b.lance"));
        Manifest overwritten = table(fragment(0, 5, "c.lance"));
        assertThat(VersionChanges.between(before, overwritten).describe()).containsExactly(
                "removed fragment 0 (10 rows)",
                "removed fragment 1 (20 rows)",
                "added fragment 0 (5 rows)");
        // a new file beside the old ones (a column added with data) changes the fragment
        DataFragment widened = fragment(0, 10, "a.lance").toBuilder().addFiles(DataFile.newBuilder().setPath("d.lance").addFields(2)).build();
        assertThat(VersionChanges.between(before, table(widened, fragment(1, 20, "b.lance"))).changes())
                .containsExactly(new VersionChanges.DataFilesChanged(0, 10, List.of("d.lance"), List.of()));
        // files of a parent referred to through a base path are the same files
        DataFragment inherited = fragment(0, 10, "a.lance").toBuilder().setFiles(0, DataFile.newBuilder().setPath("a.lance").setBaseId(0)).build();
        Manifest branch = table(inherited, fragment(1, 20, "b.lance")).toBuilder()
                .addBasePaths(BasePath.newBuilder().setId(0).setIsDatasetRoot(true).setPath("/warehouse/s/t.lance"))
                .build();
        assertThat(VersionChanges.between(before, branch).describe()).containsExactly("added base path 0 (/warehouse/s/t.lance)");
    }

    @Test
    void testColumnsByFieldId()
    {
        Manifest before = Manifest.newBuilder()
                .addFields(ID).addFields(NAME)
                .addFields(field(2, -1, "x", "double"))
                .addFields(field(3, -1, "point", "struct"))
                .addFields(field(4, 3, "a", "int32"))
                .build();
        Manifest after = Manifest.newBuilder()
                .addFields(ID.toBuilder().setNullable(false))
                .addFields(NAME.toBuilder().setName("label").putMetadata("comment", ByteString.copyFrom("the label", UTF_8)))
                .addFields(field(3, -1, "point", "struct"))
                .addFields(field(4, 3, "a", "int64"))
                .addFields(field(6, 3, "b", "int32"))
                .addFields(field(7, -1, "score", "double"))
                .addFields(field(8, -1, "tags", "list"))
                .addFields(field(9, 8, "item", "string"))
                .build();
        assertThat(VersionChanges.between(before, after).describe()).containsExactly(
                "added column point.b (id 6)",
                "added column score (id 7)",
                "added column tags (id 8)",
                "made column id not null (id 0)",
                "renamed column name to label (id 1)",
                "comment of column label set to 'the label' (id 1)",
                "changed type of column point.a from int32 to int64 (id 4)",
                "dropped column x (id 2)");
        Manifest uncommented = after.toBuilder().setFields(1, NAME.toBuilder().setName("label")).build();
        assertThat(VersionChanges.between(after, uncommented).describe()).containsExactly("comment of column label removed (was 'the label') (id 1)");
        // dropping a struct drops its children with it
        Manifest withoutPoint = Manifest.newBuilder().addFields(ID).addFields(NAME).addFields(field(2, -1, "x", "double")).build();
        assertThat(VersionChanges.between(before, withoutPoint).describe()).containsExactly("dropped column point (id 3)");
    }

    @Test
    void testReplacedSchemaNeverRenames()
    {
        Manifest before = Manifest.newBuilder().addFields(ID).addFields(NAME).build();
        Manifest after = Manifest.newBuilder().addFields(field(0, -1, "answer", "int64")).addFields(NAME).build();
        assertThat(VersionChanges.between(before, after).describe()).containsExactly("renamed column id to answer (id 0)");
        assertThat(VersionChanges.between(before, after, true).describe()).containsExactly("added column answer (id 0)", "dropped column id (id 0)");
        // a reused id with another name and type is another column even without the hint
        Manifest retyped = Manifest.newBuilder().addFields(field(0, -1, "answer", "int32")).addFields(NAME).build();
        assertThat(VersionChanges.between(before, retyped).describe()).containsExactly("added column answer (id 0)", "dropped column id (id 0)");
    }

    @Test
    void testMetadataMaps()
    {
        Manifest before = Manifest.newBuilder()
                .putConfig("lance.auto_cleanup.interval", "20")
                .putConfig("lance.auto_cleanup.older_than", "7days")
                .putTableMetadata("comment", "old")
                .putSchemaMetadata("origin", ByteString.copyFrom("x", UTF_8))
                .build();
        Manifest after = Manifest.newBuilder()
                .putConfig("lance.auto_cleanup.interval", "50")
                .putTableMetadata("owner", "it's me")
                .build();
        assertThat(VersionChanges.between(before, after).describe()).containsExactly(
                "config lance.auto_cleanup.interval set to 50 (was 20)",
                "config lance.auto_cleanup.older_than removed (was 7days)",
                "table metadata comment removed (was old)",
                "table metadata owner set to 'it''s me'",
                "schema metadata origin removed (was x)");
        assertThat(VersionChanges.show("x".repeat(150))).isEqualTo("'" + "x".repeat(100) + "…'");
    }

    @Test
    void testManyFragmentsAreSummed()
    {
        Manifest.Builder large = Manifest.newBuilder();
        for (int id = 0; id < 5; id++) {
            large.addFragments(fragment(id, 10, "f" + id + ".lance"));
        }
        VersionChanges changes = VersionChanges.between(Manifest.getDefaultInstance(), large.build());
        assertThat(changes.describe(2)).containsExactly(
                "added fragment 0 (10 rows)",
                "added fragment 1 (10 rows)",
                "added 3 more fragments (30 rows)");
        assertThat(changes.describe()).hasSize(5);
        assertThat(VersionChanges.between(large.build(), Manifest.getDefaultInstance()).describe(0)).containsExactly("removed 5 fragments (50 rows)");
    }

    private static Manifest table(DataFragment... fragments)
    {
        return Manifest.newBuilder().addFields(ID).addFields(NAME).addAllFragments(List.of(fragments)).build();
    }

    private static DataFragment fragment(long id, long rows, String path)
    {
        return DataFragment.newBuilder()
                .setId(id)
                .setPhysicalRows(rows)
                .addFiles(DataFile.newBuilder().setPath(path).addFields(0).addFields(1))
                .build();
    }

    private static DataFragment withDeletions(DataFragment fragment, long deleted)
    {
        return fragment.toBuilder()
                .setDeletionFile(DeletionFile.newBuilder().setReadVersion(1).setId(deleted).setNumDeletedRows(deleted))
                .build();
    }

    private static Field field(int id, int parent, String name, String type)
    {
        return Field.newBuilder().setId(id).setParentId(parent).setName(name).setLogicalType(type).setNullable(true).build();
    }
}
