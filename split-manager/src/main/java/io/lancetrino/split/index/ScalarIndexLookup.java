package io.lancetrino.split.index;

import com.google.inject.Inject;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.index.IndexAnswer;
import io.lancetrino.index.IndexCache;
import io.lancetrino.index.IndexFiles;
import io.lancetrino.index.LabelListIndexReader;
import io.lancetrino.index.RowAddresses;
import io.lancetrino.index.ScalarIndexReader;
import io.lancetrino.index.ScalarIndexes;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.index.FragmentBitmaps;
import io.lancetrino.metadata.index.FragmentReuse;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.split.LabelPredicate;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.TrinoException;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.ArrayType;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_INDEX;
import static java.util.Objects.requireNonNull;

/**
 * Answers a scan's pushed predicate from the table's scalar indexes on the coordinator, before splits are made, as
 * Lance's scanner does: each column's domain is looked up in one index on that column (btree and bitmap exactly, a
 * zone map as a superset) for the fragments the index covers; answers of several columns are intersected. Only the
 * fragments in a segment's {@code fragment_bitmap} (followed through compactions by the fragment reuse index) that the
 * version still has are answered from it; the rest are scanned. Deleted rows are dropped later, by the page source, as for every read.
 */
public final class ScalarIndexLookup
{
    private static final Set<IndexKind> USABLE = Set.of(IndexKind.BTREE, IndexKind.BITMAP, IndexKind.ZONEMAP);

    private final IndexCache cache;

    @Inject
    public ScalarIndexLookup(LanceConfig config)
    {
        this.cache = new IndexCache(config.getIndexCacheSize().toBytes());
    }

    public IndexSelection select(String table, TableSnapshot snapshot, TableFileSystem fileSystem, TupleDomain<LanceColumnHandle> constraint, List<LabelPredicate> labelPredicates)
    {
        if ((constraint.isAll() && labelPredicates.isEmpty()) || constraint.isNone() || (snapshot.manifest().getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
            // with stable row ids an index holds row ids, not addresses
            return IndexSelection.none();
        }
        long start = System.nanoTime();
        FragmentReuse reuse = TableIndexes.fragmentReuse(table, snapshot);
        List<IndexSegments> indexes = TableIndexes.describe(table, snapshot, reuse);
        if (indexes.isEmpty()) {
            return IndexSelection.none();
        }
        Map<Long, DataFragment> fragments = new HashMap<>();
        snapshot.manifest().getFragmentsList().forEach(fragment -> fragments.put(fragment.getId(), fragment));
        Map<Long, RoaringBitmap> selected = new HashMap<>();
        List<String> used = new ArrayList<>();
        long bytesRead = 0;
        for (List<Lookup> candidates : candidatesByPredicate(indexes, constraint, labelPredicates)) {
            // the first index that answers a predicate answers it
            for (Lookup lookup : candidates) {
                Optional<Answer> answer = answer(table, snapshot, fileSystem, fragments, reuse, lookup);
                if (answer.isPresent()) {
                    answer.get().rows().forEach((fragment, rows) -> selected.merge(fragment, rows, (left, right) -> RoaringBitmap.and(left, right)));
                    used.add(lookup.index().name());
                    bytesRead += answer.get().bytesRead();
                    break;
                }
            }
        }
        return new IndexSelection(selected, used, bytesRead, System.nanoTime() - start);
    }

    /** Per predicate (a column's domain, a label filter), the indexes that may answer it, exact ones first. */
    private List<List<Lookup>> candidatesByPredicate(List<IndexSegments> indexes, TupleDomain<LanceColumnHandle> constraint, List<LabelPredicate> labelPredicates)
    {
        List<List<Lookup>> predicates = new ArrayList<>();
        constraint.getDomains().orElseThrow().forEach((column, domain) -> {
            if (!domain.isAll() && !column.isRowAddress()) {
                predicates.add(indexes.stream()
                        .filter(index -> index.fieldIds().equals(List.of(column.fieldId())) && USABLE.contains(index.kind()) && ScalarIndexes.supports(index.kind(), column.type()))
                        .sorted(Comparator.comparing(index -> index.kind() == IndexKind.ZONEMAP))
                        .map(index -> new Lookup(index, (segment, files) -> ScalarIndexes.open(segment, files, column.type(), cache).map(reader -> search(reader, domain))))
                        .toList());
            }
        });
        for (LabelPredicate predicate : labelPredicates) {
            predicates.add(indexes.stream()
                    .filter(index -> index.fieldIds().equals(List.of(predicate.column().fieldId())) && index.kind() == IndexKind.LABEL_LIST)
                    .map(index -> new Lookup(index, (segment, files) -> ScalarIndexes.openLabelList(files, (ArrayType) predicate.column().type(), cache)
                            .map(reader -> searchLabels(reader, predicate))))
                    .toList());
        }
        return predicates;
    }

    private record Answer(Map<Long, RoaringBitmap> rows, long bytesRead) {}

    /** One index that may answer one predicate. */
    private record Lookup(IndexSegments index, SegmentSearch search) {}

    private interface SegmentSearch
    {
        /** The segment's answer, or empty when this connector does not read such a segment. */
        Optional<IndexAnswer> search(IndexMetadata segment, IndexFiles files)
                throws IOException;
    }

    private static IndexAnswer search(ScalarIndexReader reader, Domain domain)
    {
        try {
            return reader.search(domain);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static IndexAnswer searchLabels(LabelListIndexReader reader, LabelPredicate predicate)
    {
        try {
            return reader.searchLabels(predicate.nativeLabels(), predicate.all());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The rows each covered fragment may match, or empty when no segment of the index could be read by this connector.
     */
    private Optional<Answer> answer(String table, TableSnapshot snapshot, TableFileSystem fileSystem, Map<Long, DataFragment> fragments, FragmentReuse reuse, Lookup lookup)
    {
        IndexSegments index = lookup.index();
        Map<Long, RoaringBitmap> rows = new HashMap<>();
        long bytesRead = 0;
        boolean answered = false;
        for (IndexMetadata segment : index.segments()) {
            Optional<RoaringBitmap> covered = FragmentBitmaps.covered(table, segment);
            if (covered.isEmpty()) {
                // an index from before fragment bitmaps: which rows it reflects is unknown
                continue;
            }
            RoaringBitmap coveredNow = new RoaringBitmap();
            reuse.remapFragments(covered.get()).forEach((int fragment) -> {
                if (fragments.containsKey(Integer.toUnsignedLong(fragment))) {
                    coveredNow.add(fragment);
                }
            });
            if (coveredNow.isEmpty()) {
                continue;
            }
            String directory = FilePaths.indexDirectory(snapshot, segment);
            IndexFiles files = fileName -> LanceFileSystems.inputFile(fileSystem, TableFileSystem.join(directory, fileName))
                    .orElseThrow(() -> new UnsupportedLanceEncodingException("index files at %s cannot be opened by the Java reader".formatted(directory)));
            IndexAnswer result;
            try {
                Optional<IndexAnswer> found = lookup.search().search(segment, files);
                if (found.isEmpty()) {
                    continue;
                }
                result = found.get();
            }
            catch (UnsupportedLanceEncodingException e) {
                // e.g. index files in format 2.0: these fragments are scanned
                continue;
            }
            catch (TrinoException e) {
                throw e;
            }
            catch (IOException | RuntimeException e) {
                throw new TrinoException(LANCE_BAD_INDEX, "Table %s %s: cannot read index %s (%s) in %s: %s; SET SESSION <catalog>.use_scalar_index = false reads the table without it"
                        .formatted(table, snapshot.describe(), index.name(), index.typeName(), directory, e.getMessage()), e);
            }
            answered = true;
            bytesRead += result.bytesRead();
            RowAddresses addresses = result.rows();
            Map<Long, RoaringBitmap> moved = movedRows(addresses, covered.get(), coveredNow, reuse);
            coveredNow.forEach((int fragmentId) -> {
                DataFragment fragment = fragments.get(Integer.toUnsignedLong(fragmentId));
                RoaringBitmap fragmentRows = covered.get().contains(fragmentId)
                        ? addresses.forFragment(fragmentId)
                                .map(found -> found.wholeFragment() ? RoaringBitmap.bitmapOfRange(0, fragment.getPhysicalRows()) : found.offsets())
                                .orElseGet(RoaringBitmap::new)
                        : moved.getOrDefault(fragment.getId(), new RoaringBitmap());
                rows.merge(fragment.getId(), fragmentRows, (left, right) -> RoaringBitmap.or(left, right));
            });
        }
        return answered ? Optional.of(new Answer(rows, bytesRead)) : Optional.empty();
    }

    /**
     * The segment's answers for fragments a compaction rewrote since it was built, at the rows' addresses now (by the
     * fragment reuse index), for the fragments it covers now.
     */
    private static Map<Long, RoaringBitmap> movedRows(RowAddresses addresses, RoaringBitmap built, RoaringBitmap coveredNow, FragmentReuse reuse)
    {
        Map<Long, RoaringBitmap> moved = new HashMap<>();
        if (reuse.isEmpty() || built.contains(coveredNow)) {
            return moved;
        }
        built.forEach((int fragmentId) -> {
            long fragment = Integer.toUnsignedLong(fragmentId);
            OptionalLong oldRows = reuse.oldPhysicalRows(fragment);
            if (oldRows.isEmpty()) {
                return;
            }
            addresses.forFragment(fragmentId).ifPresent(found -> {
                RoaringBitmap offsets = found.wholeFragment() ? RoaringBitmap.bitmapOfRange(0, oldRows.getAsLong()) : found.offsets();
                offsets.forEach((int offset) -> reuse.remapAddress((fragment << 32) | Integer.toUnsignedLong(offset)).ifPresent(address -> {
                    if (coveredNow.contains((int) (address >>> 32))) {
                        moved.computeIfAbsent(address >>> 32, _ -> new RoaringBitmap()).add((int) address);
                    }
                }));
            });
        });
        return moved;
    }
}
