package io.lancetrino.metadata.merge;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.SdkFragments;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.Branches;
import io.lancetrino.metadata.refs.RefResolver;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.roaringbitmap.RoaringBitmap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Branch creation and three-way merge in the table layer, against tables and branches the Lance SDK reads back.
 */
@TestInstance(PER_CLASS)
final class TestBranchMerge
{
    private static final Schema SCHEMA = SdkFragments.SCHEMA;

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
    private final LocalTableFileSystem fileSystem = new LocalTableFileSystem();
    private final TableCommitter committer = new TableCommitter(20, Clock.systemUTC());

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testBranchIsLanceBranch(@TempDir Path dir)
            throws Exception
    {
        LanceTable table = table(dir);
        Branches branches = new Branches(table, committer, Clock.systemUTC());
        BranchRef dev = branches.create("dev", main(table));
        BranchRef nested = branches.create("dev/x", new RefResolver(table).branchHead("dev"));
        assertThat(nested.lineage()).hasSize(2).startsWith(dev.lineage().getFirst());
        assertThat(dev.isAncestorOf(nested)).isTrue();
        String json = Files.readString(dir.resolve("t.lance/_refs/branches/dev%2Fx.json"));
        assertThat(json).contains("\"parentBranch\"", "\"parentVersion\"", "\"createAt\"", "\"manifestSize\"", "\"metadata\"", "\"version_mapping\"");

        TableSnapshot first = new RefResolver(table).branchHead("dev");
        assertThat(first.version()).isEqualTo(2);
        assertThat(first.manifest().getBranch()).isEqualTo("dev");
        assertThat(first.manifest().getBasePathsList()).singleElement().satisfies(base -> {
            assertThat(base.getPath()).isEqualTo(table.root());
            assertThat(base.getIsDatasetRoot()).isTrue();
            assertThat(base.hasName()).isFalse();
        });
        assertThat(first.manifest().getFragmentsList()).allSatisfy(fragment -> assertThat(fragment.getFiles(0).getBaseId()).isZero());

        try (Dataset dataset = Dataset.open(table.root(), allocator)) {
            assertThat(dataset.branches().list()).extracting(org.lance.Branch::getName).containsExactlyInAnyOrder("dev", "dev/x");
            try (Dataset checkedOut = dataset.checkout(Ref.ofBranch("dev/x"))) {
                assertThat(checkedOut.countRows()).isEqualTo(20);
            }
        }
        assertThatThrownBy(() -> branches.create("dev", main(table)))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.ALREADY_EXISTS));
        assertThatThrownBy(() -> branches.drop("dev"))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.REF_IN_USE))
                .hasMessageContaining("'dev/x'");
    }

    @Test
    void testHalfMadeBranchIsInvisibleAndRetrySucceeds(@TempDir Path dir)
            throws Exception
    {
        LanceTable table = table(dir);
        // the store fails when the ref is written, after the branch's first manifest exists
        LocalTableFileSystem failingRefs = new LocalTableFileSystem()
        {
            @Override
            public void createExclusive(String location, byte[] data)
                    throws java.io.IOException
            {
                if (location.contains("_refs/")) {
                    throw new java.io.IOException("injected failure writing " + location);
                }
                super.createExclusive(location, data);
            }
        };
        LanceTable failing = new LanceTable(failingRefs, table.root(), "t", ManifestCache.disabled());
        assertThatThrownBy(() -> new Branches(failing, committer, Clock.systemUTC()).create("dev", main(failing))).hasMessageContaining("injected failure");
        assertThat(Files.exists(dir.resolve("t.lance/tree/dev/_versions"))).isTrue();
        assertThat(table.refs().listBranches()).isEmpty();
        try (Dataset dataset = Dataset.open(table.root(), allocator)) {
            assertThat(dataset.branches().list()).isEmpty();
        }
        new Branches(table, committer, Clock.systemUTC()).create("dev", main(table));
        assertThat(new RefResolver(table).branchHead("dev").version()).isEqualTo(2);
        assertThat(Files.list(dir.resolve("t.lance/tree/dev/_versions")).filter(path -> path.toString().endsWith(".manifest")).count()).isEqualTo(1);
    }

    @Test
    void testDeletionsOfSharedFragmentsAreUnionedAndNewFragmentsJoin(@TempDir Path dir)
            throws Exception
    {
        LanceTable table = table(dir);
        new Branches(table, committer, Clock.systemUTC()).create("dev", main(table));
        // both delete rows of fragment 0 (ids 0..9); dev also deletes all of fragment 1 (ids 100..109) and appends
        deleteRows(table, Optional.empty(), 0, RoaringBitmap.bitmapOf(1, 2));
        deleteRows(table, Optional.of("dev"), 0, RoaringBitmap.bitmapOf(2, 3));
        deleteRows(table, Optional.of("dev"), 1, RoaringBitmap.bitmapOfRange(0, 10));
        append(table, Optional.of("dev"), 500, 5);
        append(table, Optional.empty(), 900, 3);

        TableSnapshot target = main(table);
        TableSnapshot source = new RefResolver(table).branchHead("dev");
        MergeBase base = MergeBases.forBranches(table, source, target);
        assertThat(base.description()).isEqualTo("main@2");
        MergeOutcome outcome = new BranchMerge(committer).merge(table, target, table, source, "'dev'", MergeRecords.branchSource(source.branch()), base, MergePolicy.FAIL, false, false, Map.of());
        assertThat(outcome.fastForward()).isFalse();
        assertThat(outcome.fragmentsAdded()).isEqualTo(1);
        assertThat(outcome.rowsAdded()).isEqualTo(5);
        // row 3 of fragment 0 and all of fragment 1
        assertThat(outcome.rowsDeleted()).isEqualTo(11);
        assertThat(sdkIds(table, Ref.ofMain())).containsExactlyInAnyOrderElementsOf(concat(range(0, 10, 1, 2, 3), range(500, 505), range(900, 903)));

        TableSnapshot merged = main(table);
        assertThat(merged.manifest().getFragmentsList()).extracting(DataFragment::getId).doesNotHaveDuplicates();
        assertThat(merged.manifest().getBasePathsList()).anySatisfy(path -> assertThat(path.getPath()).isEqualTo(table.datasetLocation(Optional.of("dev"))));
        // nothing new on either side: a second merge changes nothing
        TableSnapshot again = new RefResolver(table).branchHead("dev");
        MergeOutcome second = new BranchMerge(committer).merge(table, merged, table, again, "'dev'", MergeRecords.branchSource(again.branch()),
                MergeBases.forBranches(table, again, merged), MergePolicy.FAIL, false, false, Map.of());
        assertThat(second.committedVersion()).isEmpty();
        assertThat(second.rowsAdded() + second.rowsDeleted()).isZero();
    }

    @Test
    void testFastForwardOnlyWhenTargetDidNotMove(@TempDir Path dir)
            throws Exception
    {
        LanceTable table = table(dir);
        new Branches(table, committer, Clock.systemUTC()).create("dev", main(table));
        append(table, Optional.of("dev"), 500, 5);
        TableSnapshot source = new RefResolver(table).branchHead("dev");
        MergeOutcome outcome = new BranchMerge(committer).merge(table, main(table), table, source, "'dev'", MergeRecords.branchSource(source.branch()),
                MergeBases.forBranches(table, source, main(table)), MergePolicy.FAIL, false, true, Map.of());
        assertThat(outcome.fastForward()).isTrue();
        assertThat(sdkIds(table, Ref.ofMain())).containsExactlyInAnyOrderElementsOf(sdkIds(table, Ref.ofBranch("dev")));

        append(table, Optional.empty(), 900, 1);
        append(table, Optional.of("dev"), 600, 1);
        TableSnapshot moved = new RefResolver(table).branchHead("dev");
        assertThatThrownBy(() -> new BranchMerge(committer).merge(table, main(table), table, moved, "'dev'", MergeRecords.branchSource(moved.branch()),
                MergeBases.forBranches(table, moved, main(table)), MergePolicy.FAIL, false, true, Map.of()))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.NOT_AN_ANCESTOR))
                .hasMessageContaining("'main' is not an ancestor of 'dev'");
        // the base moved to what the fast-forward brought over
        assertThat(MergeBases.forBranches(table, moved, main(table)).description()).isEqualTo("dev@3");
    }

    @Test
    void testRowsAreFollowedThroughTheSdksCompaction(@TempDir Path dir)
            throws Exception
    {
        LanceTable table = table(dir);
        new Branches(table, committer, Clock.systemUTC()).create("dev", main(table));
        append(table, Optional.of("dev"), 500, 2);
        // the SDK compacts main's two fragments into one: a Rewrite (the SDK 7.0 cannot compact a branch, whose
        // inherited files it looks for in the branch directory)
        try (Dataset dataset = Dataset.open(table.root(), allocator)) {
            dataset.compact();
        }
        assertThat(Transactions.read(fileSystem, main(table)).orElseThrow().hasRewrite()).isTrue();
        TableSnapshot source = new RefResolver(table).branchHead("dev");
        // dev only appended: its rows join the compacted main, none lost or doubled
        MergeOutcome merged = new BranchMerge(committer).merge(table, main(table), table, source, "'dev'", MergeRecords.branchSource(source.branch()),
                MergeBases.forBranches(table, source, main(table)), MergePolicy.FAIL, true, false, Map.of());
        assertThat(merged.conflicts()).isEmpty();
        assertThat(merged.rowsAdded()).isEqualTo(2);
        assertThat(merged.rowsDeleted()).isZero();

        // dev deletes a row of a fragment main compacted: the row is found in main's compacted fragment
        deleteRows(table, Optional.of("dev"), 0, RoaringBitmap.bitmapOf(4));
        TableSnapshot changed = new RefResolver(table).branchHead("dev");
        TableSnapshot target = main(table);
        for (MergePolicy policy : MergePolicy.values()) {
            MergeOutcome dryRun = new BranchMerge(committer).merge(table, target, table, changed, "'dev'", MergeRecords.branchSource(changed.branch()),
                    MergeBases.forBranches(table, changed, target), policy, true, false, Map.of());
            assertThat(dryRun.conflicts()).isEmpty();
            assertThat(dryRun.rowsAdded()).isEqualTo(2);
            assertThat(dryRun.rowsDeleted()).isEqualTo(1);
        }
        new BranchMerge(committer).merge(table, target, table, changed, "'dev'", MergeRecords.branchSource(changed.branch()),
                MergeBases.forBranches(table, changed, target), MergePolicy.FAIL, false, false, Map.of());
        assertThat(sdkIds(table, Ref.ofMain())).containsExactlyInAnyOrderElementsOf(concat(range(0, 10, 4), range(100, 110), List.of(500L, 501L)));
    }

    @Test
    void testSchemaMergeKeepsIdsOfDroppedColumnsFree()
    {
        var id = Field.newBuilder().setName("id").setId(0).setParentId(-1).setLogicalType("int64").build();
        var sourceScore = Field.newBuilder().setName("score").setId(1).setParentId(-1).setLogicalType("double").setNullable(true).build();
        var targetLabel = Field.newBuilder().setName("label").setId(1).setParentId(-1).setLogicalType("string").setNullable(true).build();
        // both added a column with id 1; the target's data files also hold id 2 of a dropped column
        SchemaMerge merged = SchemaMerge.of(List.of(id), List.of(id, sourceScore), List.of(id, targetLabel), Set.of(0, 1, 2), 3, MergePolicy.FAIL);
        assertThat(merged.conflict()).isEmpty();
        assertThat(merged.fields()).extracting(Field::getName).containsExactly("id", "label", "score");
        assertThat(merged.fields().get(2).getId()).isEqualTo(3);
        assertThat(merged.sourceFieldIds()).containsExactly(Map.entry(1, 3));

        // the same column added on both sides becomes one
        var targetScore = sourceScore.toBuilder().setId(1).build();
        assertThat(SchemaMerge.of(List.of(id), List.of(id, sourceScore), List.of(id, targetScore), Set.of(0, 1), 2, MergePolicy.FAIL).fields())
                .containsExactly(id, targetScore);
        // the same name with another type is a conflict; the target's schema is kept and the source's column renumbered
        var otherScore = sourceScore.toBuilder().setLogicalType("string").build();
        SchemaMerge conflict = SchemaMerge.of(List.of(id), List.of(id, otherScore), List.of(id, sourceScore), Set.of(0, 1), 2, MergePolicy.TARGET_WINS);
        assertThat(conflict.conflict()).isPresent();
        assertThat(conflict.fields()).containsExactly(id, sourceScore);
        assertThat(conflict.sourceFieldIds()).containsExactly(Map.entry(1, 2));
        // taken from the source only, a new column still avoids ids the target's data files hold
        SchemaMerge sourceOnly = SchemaMerge.of(List.of(id), List.of(id, sourceScore), List.of(id), Set.of(0, 1), 2, MergePolicy.FAIL);
        assertThat(sourceOnly.fields().get(1).getId()).isEqualTo(2);
    }

    private LanceTable table(Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        LanceTable table = new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
        List<DataFragment> fragments = new ArrayList<>(SdkFragments.writeProtos(allocator, uri, 0, 10));
        fragments.addAll(SdkFragments.writeProtos(allocator, uri, 100, 10));
        committer.commit(table, Optional.empty(), Transaction.newBuilder().setReadVersion(1).setUuid(UUID.randomUUID().toString())
                .setAppend(Transaction.Append.newBuilder().addAllFragments(fragments)).build());
        return table;
    }

    private static TableSnapshot main(LanceTable table)
    {
        return new RefResolver(table).latest(Optional.empty());
    }

    private void append(LanceTable table, Optional<String> branch, long firstId, int rows)
            throws Exception
    {
        TableSnapshot head = new RefResolver(table).latest(branch);
        committer.commit(table, branch, Transaction.newBuilder().setReadVersion(head.version()).setUuid(UUID.randomUUID().toString())
                .setAppend(Transaction.Append.newBuilder().addAllFragments(SdkFragments.writeProtos(allocator, table.datasetLocation(branch), firstId, rows))).build());
    }

    private void deleteRows(LanceTable table, Optional<String> branch, int fragmentIndex, RoaringBitmap rows)
    {
        TableSnapshot head = new RefResolver(table).latest(branch);
        DataFragment fragment = head.manifest().getFragments(fragmentIndex);
        RoaringBitmap all = RoaringBitmap.or(DeletionFiles.read(fileSystem, head, fragment), rows);
        Transaction.Delete.Builder delete = Transaction.Delete.newBuilder();
        if (all.getLongCardinality() == fragment.getPhysicalRows()) {
            delete.addDeletedFragmentIds(fragment.getId());
        }
        else {
            delete.addUpdatedFragments(fragment.toBuilder().setDeletionFile(DeletionFiles.write(fileSystem, head.datasetLocation(), fragment.getId(), head.version(), all)));
        }
        committer.commit(table, branch, Transaction.newBuilder().setReadVersion(head.version()).setUuid(UUID.randomUUID().toString()).setDelete(delete).build());
    }

    private List<Long> sdkIds(LanceTable table, Ref ref)
            throws Exception
    {
        List<Long> ids = new ArrayList<>();
        try (Dataset dataset = Dataset.open(table.root(), allocator);
                Dataset checkedOut = dataset.checkout(ref);
                LanceScanner scanner = checkedOut.newScan(new ScanOptions.Builder().build());
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                BigIntVector vector = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
                for (int i = 0; i < vector.getValueCount(); i++) {
                    ids.add(vector.get(i));
                }
            }
        }
        return ids;
    }

    private static List<Long> range(long from, long to, long... except)
    {
        List<Long> values = new ArrayList<>();
        for (long value = from; value < to; value++) {
            long candidate = value;
            if (Arrays.stream(except).noneMatch(excluded -> excluded == candidate)) {
                values.add(value);
            }
        }
        return values;
    }

    @SafeVarargs
    private static List<Long> concat(List<Long>... lists)
    {
        return Arrays.stream(lists).flatMap(List::stream).toList();
    }
}
