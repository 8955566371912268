package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.SdkFragments;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.deletion.DeletionFiles;
import io.lancetrino.metadata.deletion.DeletionVectors;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.Transaction;
import io.lancetrino.metadata.refs.RefResolver;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.WriteParams;
import org.lance.compaction.CompactionOptions;
import org.roaringbitmap.RoaringBitmap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The Java commit protocol against the Lance SDK: what we commit it must open, scan and append to, and concurrent
 * commits follow Lance's conflict rules.
 */
@TestInstance(PER_CLASS)
final class TestTableCommitter
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
    void testConcurrentAppendsAllLand(@TempDir Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        List<List<DataFragment>> batches = new ArrayList<>();
        for (int writer = 0; writer < 8; writer++) {
            batches.add(SdkFragments.writeProtos(allocator, uri, writer * 100, 10));
        }
        LanceTable table = table(uri);
        ExecutorService executor = Executors.newFixedThreadPool(8);
        try {
            List<Future<CommitResult>> results = new ArrayList<>();
            for (List<DataFragment> batch : batches) {
                results.add(executor.submit((Callable<CommitResult>) () -> committer.commit(table, Optional.empty(), append(1, batch))));
            }
            for (Future<CommitResult> result : results) {
                result.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        TableSnapshot latest = new RefResolver(table).latest(Optional.empty());
        assertThat(latest.version()).isEqualTo(9);
        assertThat(latest.manifest().getFragmentsList()).extracting(DataFragment::getId).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(latest.manifest().getMaxFragmentId()).isEqualTo(7);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(9);
            assertThat(dataset.countRows()).isEqualTo(80);
            assertThat(dataset.readTransaction()).isPresent();
        }
        // the SDK appends on top of our commits
        List<FragmentMetadata> more = SdkFragments.write(allocator, uri, 1000, 5);
        new FragmentOperation.Append(more).commit(allocator, uri, Optional.of(9L), Map.of()).close();
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(85);
        }
        assertThat(new RefResolver(table(uri)).latest(Optional.empty()).manifest().getFragmentsCount()).isEqualTo(9);
    }

    @Test
    void testDeletesOnDifferentFragmentsRebase(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction first = delete(read, 0, RoaringBitmap.bitmapOf(1, 2, 3), false);
        Transaction second = delete(read, 1, RoaringBitmap.bitmapOf(0, 9), true);
        assertThat(committer.commit(table, Optional.empty(), first).version()).isEqualTo(3);
        // computed from version 2, committed on top of version 3: the fragments differ, so it rebases
        CommitResult result = committer.commit(table, Optional.empty(), second);
        assertThat(result.version()).isEqualTo(4);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(20 - 5);
            assertThat(dataset.countRows("id = 1 OR id = 2 OR id = 3 OR id = 100 OR id = 109")).isZero();
            dataset.delete("id = 5");
            assertThat(dataset.countRows()).isEqualTo(14);
        }
    }

    @Test
    void testDeletesOfTheSameRowConflict(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        committer.commit(table, Optional.empty(), delete(read, 0, RoaringBitmap.bitmapOf(1, 2), false));
        Transaction conflicting = delete(read, 0, RoaringBitmap.bitmapOf(2), false);
        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), conflicting))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("main version 3 (delete) changed the same rows as this delete; re-run the statement");
        // the table holds exactly the first delete
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(3);
            assertThat(dataset.countRows()).isEqualTo(18);
        }
    }

    @Test
    void testConcurrentDeletesOnOneFragmentAllLand(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        LanceTable table = table(uri);
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 2; round++) {
                TableSnapshot read = new RefResolver(table).latest(Optional.empty());
                List<Future<CommitResult>> commits = new ArrayList<>();
                for (int writer = 0; writer < 4; writer++) {
                    // each writer deletes its own row on top of the fragment's current deletions
                    RoaringBitmap rows = readDeletions(read, read.manifest().getFragments(0));
                    rows.add(round * 4 + writer);
                    Transaction delete = delete(read, 0, rows, false);
                    commits.add(executor.submit(() -> committer.commit(table, Optional.empty(), delete)));
                }
                for (Future<CommitResult> commit : commits) {
                    commit.get();
                }
                // every writer's row is deleted: none overwrote another's deletion file
                TableSnapshot after = new RefResolver(table).latest(Optional.empty());
                assertThat(after.version()).isEqualTo(read.version() + 4);
                RoaringBitmap expected = new RoaringBitmap();
                expected.add(0L, round * 4L + 4);
                assertThat(readDeletions(after, after.manifest().getFragments(0))).isEqualTo(expected);
            }
        }
        finally {
            executor.shutdownNow();
        }
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(12);
        }
    }

    private RoaringBitmap readDeletions(TableSnapshot snapshot, DataFragment fragment)
            throws Exception
    {
        if (!fragment.hasDeletionFile()) {
            return new RoaringBitmap();
        }
        String location = io.lancetrino.metadata.FilePaths.deletionFile(snapshot, fragment).orElseThrow();
        return DeletionVectors.read(location, fileSystem.readFile(location), DeletionVectors.isBitmapLocation(location));
    }

    @Test
    void testFailedCommitLeavesThePreviousVersion(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        List<DataFragment> written = SdkFragments.writeProtos(allocator, uri, 900, 4);
        // the store fails while publishing the manifest, after data and transaction files exist
        LocalTableFileSystem failing = new LocalTableFileSystem()
        {
            @Override
            public void createExclusive(String location, byte[] data)
                    throws java.io.IOException
            {
                throw new java.io.IOException("injected failure writing " + location);
            }
        };
        LanceTable table = new LanceTable(failing, uri, "t", ManifestCache.disabled());
        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), append(2, written)))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.FILESYSTEM_ERROR))
                .hasMessageContaining("injected failure");
        assertThat(Files.exists(Path.of(uri, "data", written.getFirst().getFiles(0).getPath()))).isTrue();
        assertThat(table(uri).latestVersion(Optional.empty())).hasValue(2);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(2);
            assertThat(dataset.countRows()).isEqualTo(20);
        }
        // the same change commits once the store works again
        assertThat(committer.commit(table(uri), Optional.empty(), append(2, written)).version()).isEqualTo(3);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(24);
        }
    }

    @Test
    void testIndicesAreCarriedForward(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.createIndex(List.of("id"), org.lance.index.IndexType.BTREE, Optional.of("id_idx"),
                    org.lance.index.IndexParams.builder().setScalarIndexParams(org.lance.index.scalar.ScalarIndexParams.create("btree")).build(), true);
        }
        LanceTable table = table(uri);
        long indexed = table.latestVersion(Optional.empty()).orElseThrow();
        CommitResult result = committer.commit(table, Optional.empty(), append(indexed, SdkFragments.writeProtos(allocator, uri, 500, 3)));
        assertThat(result.manifest().indexSection().orElseThrow().getIndicesList()).extracting(io.lancetrino.metadata.proto.IndexMetadata::getName).containsExactly("id_idx");
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows("id = 5 OR id = 501")).isEqualTo(2);
            // fails when the SDK cannot find the index
            assertThat(dataset.countIndexedRows("id_idx", "id >= 0", Optional.empty())).isPositive();
        }
    }

    @Test
    void testAppendAfterOverwriteIsIncompatible(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        LanceTable table = table(uri);
        Transaction overwrite = Transaction.newBuilder()
                .setReadVersion(2)
                .setUuid(UUID.randomUUID().toString())
                .setOverwrite(Transaction.Overwrite.newBuilder().addAllSchema(table.snapshot(Optional.empty(), 2).manifest().getFieldsList()))
                .build();
        committer.commit(table, Optional.empty(), overwrite);
        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), append(2, SdkFragments.writeProtos(allocator, uri, 500, 3))))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.INCOMPATIBLE_CHANGE));
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isZero();
        }
    }

    @Test
    void testTransactionIsWrittenBeforeTheManifest(@TempDir Path dir)
            throws Exception
    {
        String uri = twoFragmentTable(dir);
        LanceTable table = table(uri);
        CommitResult result = committer.commit(table, Optional.empty(), append(2, SdkFragments.writeProtos(allocator, uri, 700, 2)));
        String transactionFile = result.manifest().manifest().getTransactionFile();
        assertThat(Files.exists(Path.of(uri, "_transactions", transactionFile))).isTrue();
        assertThat(transactionFile).startsWith("2-");
        assertThat(result.manifest().manifest().getWriterVersion().getLibrary()).isEqualTo(WriterIdentity.LIBRARY);
        assertThat(Files.readString(Path.of(uri, "_versions", "latest_version_hint.json"))).isEqualTo("{\"version\":3}");
    }

    @Test
    void testRewriteKeepsAnAppendCommittedAfterItsReadVersion(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction rewrite = rewrite(read, SdkFragments.writeProtos(allocator, uri, 0, 30));
        assertThat(committer.commit(table, Optional.empty(), append(2, SdkFragments.writeProtos(allocator, uri, 1000, 5))).version()).isEqualTo(3);

        CommitResult result = committer.commit(table, Optional.empty(), rewrite);

        assertThat(result.version()).isEqualTo(4);
        // the compacted fragment takes the place of the old ones, the appended one stays after it
        assertThat(result.manifest().manifest().getFragmentsList()).extracting(DataFragment::getId).containsExactly(4L, 3L);
        assertThat(result.manifest().manifest().getMaxFragmentId()).isEqualTo(4);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(4);
            assertThat(dataset.countRows()).isEqualTo(35);
            assertThat(dataset.countRows("id < 30")).isEqualTo(30);
            assertThat(dataset.countRows("id >= 1000")).isEqualTo(5);
            assertThat(dataset.getFragments()).hasSize(2);
            // Lance reads the transaction as its own compaction
            try (org.lance.Transaction transaction = dataset.readTransaction().orElseThrow()) {
                assertThat(transaction.readVersion()).isEqualTo(2);
                org.lance.operation.Rewrite operation = (org.lance.operation.Rewrite) transaction.operation();
                assertThat(operation.groups()).hasSize(1);
                assertThat(operation.groups().getFirst().oldFragments()).extracting(FragmentMetadata::getId).containsExactly(0, 1, 2);
            }
        }
    }

    @Test
    void testRewriteGivesWayWhenAUserWriteRemovedItsFragment(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction rewrite = rewrite(read, SdkFragments.writeProtos(allocator, uri, 0, 30));
        // every row of fragment 1 deleted: the compaction's copies of them have nowhere to go but a fragment of its own
        committer.commit(table, Optional.empty(), deleteRows(read, Map.of(), Set.of(1)));

        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), rewrite))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("main version 3 (delete) changed the same fragments as this rewrite; re-run the statement");
        // nothing was published: the deleted rows stay deleted
        assertThat(table.latestVersion(Optional.empty())).hasValue(3);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(3);
            assertThat(dataset.countRows()).isEqualTo(20);
        }
    }

    @Test
    void testRewriteCarriesADeleteOfItsFragment(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction rewrite = rewrite(read, SdkFragments.writeProtos(allocator, uri, 0, 30));
        committer.commit(table, Optional.empty(), delete(read, 1, RoaringBitmap.bitmapOf(4), true));

        assertThat(committer.commit(table, Optional.empty(), rewrite).version()).isEqualTo(4);
        // the deleted row stays deleted, in the compacted fragment, and Lance continues the table
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(29);
            assertThat(dataset.countRows("id = 14")).isZero();
            dataset.delete("id = 15");
            assertThat(dataset.countRows()).isEqualTo(28);
        }
    }

    @Test
    void testDeletesOfOtherRowsInTheSameFragmentAreUnited(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction first = deleteRows(read, Map.of(1, RoaringBitmap.bitmapOf(4)), Set.of());
        Transaction second = deleteRows(read, Map.of(1, RoaringBitmap.bitmapOf(6, 7)), Set.of());
        Transaction sameRow = deleteRows(read, Map.of(1, RoaringBitmap.bitmapOf(7)), Set.of());
        committer.commit(table, Optional.empty(), first);

        committer.commit(table, Optional.empty(), second);

        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), sameRow))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("main version 4 (delete) changed the same rows as this delete; re-run the statement");
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(4);
            assertThat(dataset.countRows()).isEqualTo(27);
            assertThat(dataset.countRows("id IN (14, 16, 17)")).isZero();
        }
    }

    @Test
    void testCompactionCarriesDeletionsCommittedWhileItRan(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        List<DataFragment> fragments = read.manifest().getFragmentsList();
        Transaction compaction = Transaction.newBuilder()
                .setReadVersion(2)
                .setUuid(UUID.randomUUID().toString())
                .setRewrite(Transaction.Rewrite.newBuilder()
                        .addGroups(Transaction.RewriteGroup.newBuilder().addAllOldFragments(fragments.subList(0, 2)).addAllNewFragments(SdkFragments.writeProtos(allocator, uri, 0, 20)))
                        .addGroups(Transaction.RewriteGroup.newBuilder().addOldFragments(fragments.get(2)).addAllNewFragments(SdkFragments.writeProtos(allocator, uri, 20, 10))))
                .build();
        // while it runs: all of fragment 0 (ids 0-9) and row 5 of fragment 2 (id 25) are deleted
        committer.commit(table, Optional.empty(), deleteRows(read, Map.of(2, RoaringBitmap.bitmapOf(5)), Set.of(0)));
        // and a delete computed after that one, committed after the compaction, deletes id 27 (fragment 2 is now second)
        Transaction later = deleteRows(table.snapshot(Optional.empty(), 3), Map.of(1, RoaringBitmap.bitmapOf(7)), Set.of());

        CommitResult result = committer.commit(table, Optional.empty(), compaction);

        // the group of the removed fragment gives way; the other carries id 25's deletion into its new fragment
        assertThat(result.transaction().getRewrite().getGroupsList()).extracting(group -> group.getOldFragments(0).getId()).containsExactly(2L);
        assertThat(result.manifest().manifest().getFragmentsList()).extracting(DataFragment::getId).containsExactly(1L, 3L);
        assertThat(result.manifest().manifest().getFragments(1).getDeletionFile().getNumDeletedRows()).isEqualTo(1);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(19);
            assertThat(dataset.countRows("id < 10 OR id = 25")).isZero();
            try (org.lance.Transaction transaction = dataset.readTransaction().orElseThrow()) {
                assertThat(((org.lance.operation.Rewrite) transaction.operation()).groups()).hasSize(1);
            }
        }

        committer.commit(table, Optional.empty(), later);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(18);
            assertThat(dataset.countRows("id = 27")).isZero();
        }
    }

    @Test
    void testDeleteFailsWhenACompactionOfItsFragmentCannotBeFollowed(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction delete = delete(read, 1, RoaringBitmap.bitmapOf(4), true);
        // a compaction that lost a row: the delete's rows have no certain place in it
        committer.commit(table, Optional.empty(), rewrite(read, SdkFragments.writeProtos(allocator, uri, 0, 29)));

        assertThatThrownBy(() -> committer.commit(table, Optional.empty(), delete))
                .isInstanceOfSatisfying(LanceTableException.class, e -> assertThat(e.kind()).isEqualTo(LanceErrorKind.COMMIT_CONFLICT))
                .hasMessageContaining("main version 3 (rewrite) changed the same fragments as this delete");
        // an append from the same read version still lands on top of the compaction
        assertThat(committer.commit(table, Optional.empty(), append(2, SdkFragments.writeProtos(allocator, uri, 1000, 5))).version()).isEqualTo(4);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(34);
            assertThat(dataset.countRows("id = 14")).isEqualTo(1);
        }
        // Lance's own delete from version 2 finds our rewrite of its fragment and runs again on the latest version;
        // had it missed the conflict, it would have changed a fragment that no longer exists and row 14 would remain
        try (Dataset old = Dataset.open(allocator, uri, new org.lance.ReadOptions.Builder().setVersion(2L).build())) {
            old.delete("id = 14");
        }
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.version()).isEqualTo(5);
            assertThat(dataset.countRows()).isEqualTo(33);
            assertThat(dataset.countRows("id = 14")).isZero();
        }
    }

    @Test
    void testDeleteFollowsOurCompactionOfItsFragment(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        Transaction delete = delete(read, 1, RoaringBitmap.bitmapOf(4), true);
        committer.commit(table, Optional.empty(), rewrite(read, SdkFragments.writeProtos(allocator, uri, 0, 30)));

        CommitResult result = committer.commit(table, Optional.empty(), delete);

        assertThat(result.version()).isEqualTo(4);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(29);
            assertThat(dataset.countRows("id = 14")).isZero();
            // the published transaction names the compacted fragment, so later writers check against what changed
            try (org.lance.Transaction transaction = dataset.readTransaction().orElseThrow()) {
                org.lance.operation.Delete operation = (org.lance.operation.Delete) transaction.operation();
                assertThat(operation.updatedFragments()).extracting(FragmentMetadata::getId).containsExactly(3);
            }
        }
    }

    @Test
    void testDeleteFollowsLanceCompactionsOfItsFragments(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        // rows 1 and 2 were deleted before the statement read the table: the compaction drops them
        committer.commit(table, Optional.empty(), deleteRows(table.snapshot(Optional.empty(), 2), Map.of(0, RoaringBitmap.bitmapOf(1, 2)), Set.of()));
        TableSnapshot read = table.snapshot(Optional.empty(), 3);
        // the statement deletes row 5, row 17 and all of fragment 2 (ids 20-29)
        Transaction delete = deleteRows(read, Map.of(0, RoaringBitmap.bitmapOf(5), 1, RoaringBitmap.bitmapOf(7)), Set.of(2));
        // meanwhile Lance compacts twice: into fragments of 12, 12 and 4 rows, then into one
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.compact(CompactionOptions.builder().withTargetRowsPerFragment(12).build());
        }
        assertThat(table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow()).manifest().getFragmentsList())
                .extracting(DataFragment::getPhysicalRows).containsExactly(12L, 12L, 4L);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.compact(CompactionOptions.builder().withTargetRowsPerFragment(100).build());
        }
        long compacted = table.latestVersion(Optional.empty()).orElseThrow();

        CommitResult result = committer.commit(table, Optional.empty(), delete);

        assertThat(result.version()).isEqualTo(compacted + 1);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(30 - 2 - 2 - 10);
            assertThat(dataset.countRows("id IN (1, 2, 5, 17) OR id >= 20")).isZero();
            assertThat(dataset.countRows("id IN (0, 3, 4, 6, 16, 18, 19)")).isEqualTo(7);
        }
    }

    @Test
    void testUpdateFollowsACompactionThatEmptiesAFragment(@TempDir Path dir)
            throws Exception
    {
        String uri = threeFragmentTable(dir);
        LanceTable table = table(uri);
        TableSnapshot read = table.snapshot(Optional.empty(), 2);
        // the update moves rows 10-19 (all of fragment 1) into a new fragment with ids 110-119
        Transaction deletion = deleteRows(read, Map.of(), Set.of(1));
        Transaction update = deletion.toBuilder()
                .clearDelete()
                .setUpdate(Transaction.Update.newBuilder()
                        .addAllRemovedFragmentIds(deletion.getDelete().getDeletedFragmentIdsList())
                        .addAllNewFragments(SdkFragments.writeProtos(allocator, uri, 110, 10)))
                .build();
        // the compaction rewrites fragment 1 with its neighbours into fragments of at most 15 rows
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.compact(CompactionOptions.builder().withTargetRowsPerFragment(15).build());
        }
        assertThat(table.snapshot(Optional.empty(), table.latestVersion(Optional.empty()).orElseThrow()).manifest().getFragmentsList())
                .extracting(DataFragment::getId).doesNotContain(1L);

        committer.commit(table, Optional.empty(), update);

        try (Dataset dataset = Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(30);
            assertThat(dataset.countRows("id >= 10 AND id < 20")).isZero();
            assertThat(dataset.countRows("id >= 110")).isEqualTo(10);
            assertThat(dataset.countRows("id < 10 OR (id >= 20 AND id < 30)")).isEqualTo(20);
        }
    }

    /**
     * Compacts all fragments of {@code read} into {@code compacted}, as Lance writes it: the new fragments carry id 0.
     */
    private static Transaction rewrite(TableSnapshot read, List<DataFragment> compacted)
    {
        return Transaction.newBuilder()
                .setReadVersion(read.version())
                .setUuid(UUID.randomUUID().toString())
                .setRewrite(Transaction.Rewrite.newBuilder().addGroups(Transaction.RewriteGroup.newBuilder()
                        .addAllOldFragments(read.manifest().getFragmentsList())
                        .addAllNewFragments(compacted)))
                .build();
    }

    /**
     * Fragments 0, 1 and 2 with ids 0-9, 10-19 and 20-29, at version 2.
     */
    private String threeFragmentTable(Path dir)
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        List<FragmentMetadata> fragments = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            fragments.addAll(SdkFragments.write(allocator, uri, i * 10, 10));
        }
        new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(1L), Map.of()).close();
        return uri;
    }

    private String twoFragmentTable(Path dir)
            throws Exception
    {
        String uri = dir.resolve("t.lance").toString();
        Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
        List<FragmentMetadata> fragments = new ArrayList<>(SdkFragments.write(allocator, uri, 0, 10));
        fragments.addAll(SdkFragments.write(allocator, uri, 100, 10));
        new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(1L), Map.of()).close();
        return uri;
    }

    private Transaction delete(TableSnapshot read, int fragmentIndex, RoaringBitmap rows, boolean bitmap)
            throws Exception
    {
        DataFragment fragment = read.manifest().getFragments(fragmentIndex);
        long id = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
        String name = "%s-%s-%s.%s".formatted(fragment.getId(), read.version(), id, bitmap ? "bin" : "arrow");
        byte[] content = bitmap ? DeletionVectors.writeBitmap(rows) : DeletionVectors.writeArrow(rows);
        fileSystem.writeFile(read.datasetLocation() + "/_deletions/" + name, content);
        DataFragment updated = fragment.toBuilder()
                .setDeletionFile(DeletionFile.newBuilder()
                        .setFileType(bitmap ? DeletionFile.DeletionFileType.BITMAP : DeletionFile.DeletionFileType.ARROW_ARRAY)
                        .setReadVersion(read.version())
                        .setId(id)
                        .setNumDeletedRows(rows.getCardinality()))
                .build();
        return Transaction.newBuilder()
                .setReadVersion(read.version())
                .setUuid(UUID.randomUUID().toString())
                .setDelete(Transaction.Delete.newBuilder().addUpdatedFragments(updated).setPredicate("test"))
                .build();
    }

    /**
     * A delete computed on {@code read}: new deleted rows by fragment index, and fragments removed outright.
     */
    private Transaction deleteRows(TableSnapshot read, Map<Integer, RoaringBitmap> rows, Set<Integer> removed)
    {
        Transaction.Delete.Builder delete = Transaction.Delete.newBuilder().setPredicate("test");
        rows.forEach((index, deleted) -> {
            DataFragment fragment = read.manifest().getFragments(index);
            RoaringBitmap all = DeletionFiles.read(fileSystem, read, fragment);
            all.or(deleted);
            delete.addUpdatedFragments(fragment.toBuilder().setDeletionFile(DeletionFiles.write(fileSystem, read.datasetLocation(), fragment.getId(), read.version(), all)));
        });
        removed.forEach(index -> delete.addDeletedFragmentIds(read.manifest().getFragments(index).getId()));
        return Transaction.newBuilder()
                .setReadVersion(read.version())
                .setUuid(UUID.randomUUID().toString())
                .setDelete(delete)
                .build();
    }

    private static Transaction append(long readVersion, List<DataFragment> fragments)
    {
        return Transaction.newBuilder()
                .setReadVersion(readVersion)
                .setUuid(UUID.randomUUID().toString())
                .setAppend(Transaction.Append.newBuilder().addAllFragments(fragments))
                .build();
    }

    private LanceTable table(String uri)
    {
        return new LanceTable(fileSystem, uri, "t", ManifestCache.disabled());
    }
}
