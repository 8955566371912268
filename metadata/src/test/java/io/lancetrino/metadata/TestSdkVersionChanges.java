package io.lancetrino.metadata;

import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.schema.ColumnAlteration;
import org.lance.schema.SqlExpressions;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Changes of versions written by the Lance SDK, each against the manifest before it.
 */
@TestInstance(PER_CLASS)
final class TestSdkVersionChanges
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(new ArrowType.Utf8()), null)));

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
    private final LocalTableFileSystem fileSystem = new LocalTableFileSystem();

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testSdkHistory(@TempDir Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        append(uri, 0, 100);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.delete("id < 10");
        }
        append(uri, 100, 50);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.delete("id >= 100");
            dataset.updateConfig(Map.of("lance.auto_cleanup.interval", "20"));
            dataset.alterColumns(List.of(new ColumnAlteration.Builder("name").rename("label").build()));
            dataset.addColumns(new SqlExpressions.Builder().withExpression("score", "id * 2").build(), Optional.empty());
            dataset.dropColumns(List.of("label"));
            dataset.deleteConfigKeys(Set.of("lance.auto_cleanup.interval"));
            dataset.createBranch("dev", Ref.ofMain(10)).close();
        }

        LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
        Map<Long, List<String>> main = history(table, Optional.empty());
        assertThat(main.get(1L)).containsExactly("added column id (id 0)", "added column name (id 1)");
        assertThat(main.get(2L)).containsExactly("added fragment 0 (100 rows)");
        assertThat(main.get(3L)).containsExactly("deleted 10 rows in fragment 0 (now 10 of 100 deleted)");
        assertThat(main.get(4L)).containsExactly("added fragment 1 (50 rows)");
        assertThat(main.get(5L)).containsExactly("removed fragment 1 (50 rows)");
        assertThat(main.get(6L)).containsExactly("config lance.auto_cleanup.interval set to 20");
        assertThat(main.get(7L)).containsExactly("renamed column name to label (id 1)");
        assertThat(main.get(8L)).containsExactly("added column score (id 2)", "changed data files of fragment 0 (1 added, 0 removed)");
        assertThat(main.get(9L)).containsExactly("dropped column label (id 1)");
        assertThat(main.get(10L)).containsExactly("config lance.auto_cleanup.interval removed (was 20)");

        // a branch's first version is measured against the version it was created from
        TableSnapshot branchFirst = table.snapshot(Optional.of("dev"), 10);
        Manifest parent = VersionChanges.previousManifest(table, branchFirst).orElseThrow();
        assertThat(parent.getVersion()).isEqualTo(10);
        assertThat(parent.hasBranch()).isFalse();
        assertThat(VersionChanges.between(parent, branchFirst.manifest()).describe()).containsExactly("added base path 0 (" + uri + ")");
    }

    private Map<Long, List<String>> history(LanceTable table, Optional<String> branch)
    {
        Map<Long, List<String>> history = new LinkedHashMap<>();
        for (long version : table.listVersions(branch)) {
            TableSnapshot snapshot = table.snapshot(branch, version);
            Manifest previous = VersionChanges.previousManifest(table, snapshot).orElseThrow();
            boolean overwrite = Transactions.read(fileSystem, snapshot).map(Transaction::hasOverwrite).orElse(false);
            history.put(version, VersionChanges.between(previous, snapshot.manifest(), overwrite).describe());
        }
        return history;
    }

    private void append(String uri, long first, int rows)
            throws Exception
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            BigIntVector ids = (BigIntVector) root.getVector(0);
            VarCharVector names = (VarCharVector) root.getVector(1);
            ids.allocateNew(rows);
            names.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                ids.set(i, first + i);
                names.setSafe(i, ("n" + (first + i)).getBytes(UTF_8));
            }
            root.setRowCount(rows);
            List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, new WriteParams.Builder().build());
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                long version = dataset.version();
                new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(version), Map.of()).close();
            }
        }
    }
}
