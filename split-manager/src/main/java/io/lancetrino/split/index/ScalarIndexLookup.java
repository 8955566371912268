package io.lancetrino.split.index;

import com.google.inject.Inject;
import io.lancetrino.file.UnsupportedLanceEncodingException;
import io.lancetrino.index.IndexAnswer;
import io.lancetrino.index.IndexCache;
import io.lancetrino.index.IndexFiles;
import io.lancetrino.index.RowAddresses;
import io.lancetrino.index.ScalarIndexReader;
import io.lancetrino.index.ScalarIndexes;
import io.lancetrino.metadata.FeatureFlags;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.index.FragmentBitmaps;
import io.lancetrino.metadata.index.IndexKind;
import io.lancetrino.metadata.index.IndexSegments;
import io.lancetrino.metadata.index.TableIndexes;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.split.LanceColumnHandle;
import io.lancetrino.split.LanceConfig;
import io.lancetrino.split.fs.LanceFileSystems;
import io.trino.spi.TrinoException;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_INDEX;
import static java.util.Objects.requireNonNull;

/**
 * Answers a scan's pushed predicate from the table's scalar indexes on the coordinator, before splits are made, as
 * Lance's scanner does: each column's domain is looked up in one index on that column (btree and bitmap exactly, a
 * zone map as a superset) for the fragments the index covers; answers of several columns are intersected. Only the
 * fragments in a segment's {@code fragment_bitmap} that the version still has are answered from it; the rest are
 * scanned. Deleted rows are dropped later, by the page source, as for every read.
 */
public final class ScalarIndexLookup
{
    private static final Set<IndexKind> USABLE = Set.of(IndexKind.BTREE, IndexKind.BITMAP, IndexKind.ZONEMAP);

    private final IndexCache cache;

    @Inject
    public ScalarIndexLookup(LanceConfig config)
    {
        this(new IndexCache(config.getIndexCacheSize().toBytes()));
    }

    public ScalarIndexLookup(IndexCache cache)
    {
        this.cache = requireNonNull(cache, "cache is null");
    }

    public IndexCache cache()
    {
        return cache;
    }

    public IndexSelection select(String table, TableSnapshot snapshot, TableFileSystem fileSystem, TupleDomain<LanceColumnHandle> constraint)
    {
        if (constraint.isAll() || constraint.isNone() || (snapshot.manifest().getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
            // with stable row ids an index holds row ids, not addresses
            return IndexSelection.none();
        }
        long start = System.nanoTime();
        List<IndexSegments> indexes = TableIndexes.describe(table, snapshot);
        if (indexes.isEmpty()) {
            return IndexSelection.none();
        }
        Map<Long, DataFragment> fragments = new HashMap<>();
        snapshot.manifest().getFragmentsList().forEach(fragment -> fragments.put(fragment.getId(), fragment));
        Map<Long, RoaringBitmap> selected = new HashMap<>();
        List<String> used = new ArrayList<>();
        long bytesRead = 0;
        for (Map.Entry<LanceColumnHandle, Domain> entry : constraint.getDomains().orElseThrow().entrySet()) {
            LanceColumnHandle column = entry.getKey();
            if (entry.getValue().isAll() || column.isRowAddress()) {
                continue;
            }
            List<IndexSegments> candidates = indexes.stream()
                    .filter(index -> index.fieldIds().equals(List.of(column.fieldId())) && USABLE.contains(index.kind()) && ScalarIndexes.supports(index.kind(), column.type()))
                    // exact answers first
                    .sorted(Comparator.comparing(index -> index.kind() == IndexKind.ZONEMAP))
                    .toList();
            for (IndexSegments index : candidates) {
                Optional<Answer> answer = answer(table, snapshot, fileSystem, fragments, index, column, entry.getValue());
                if (answer.isPresent()) {
                    answer.get().rows().forEach((fragment, rows) -> selected.merge(fragment, rows, (left, right) -> RoaringBitmap.and(left, right)));
                    used.add(index.name());
                    bytesRead += answer.get().bytesRead();
                    break;
                }
            }
        }
        return new IndexSelection(selected, used, bytesRead, System.nanoTime() - start);
    }

    private record Answer(Map<Long, RoaringBitmap> rows, long bytesRead) {}

    /**
     * The rows each covered fragment may match, or empty when no segment of the index could be read by this connector.
     */
    private Optional<Answer> answer(String table, TableSnapshot snapshot, TableFileSystem fileSystem, Map<Long, DataFragment> fragments, IndexSegments index, LanceColumnHandle column, Domain domain)
    {
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
            covered.get().forEach((int fragment) -> {
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
                Optional<ScalarIndexReader> reader = ScalarIndexes.open(segment, files, column.type(), cache);
                if (reader.isEmpty()) {
                    continue;
                }
                result = reader.get().search(domain);
            }
            catch (UnsupportedLanceEncodingException e) {
                // e.g. index files in format 2.0: these fragments are scanned
                continue;
            }
            catch (IOException | RuntimeException e) {
                throw new TrinoException(LANCE_BAD_INDEX, "Table %s %s: cannot read index %s (%s) in %s: %s; SET SESSION <catalog>.use_scalar_index = false reads the table without it"
                        .formatted(table, snapshot.describe(), index.name(), index.typeName(), directory, e.getMessage()), e);
            }
            answered = true;
            bytesRead += result.bytesRead();
            RowAddresses addresses = result.rows();
            coveredNow.forEach((int fragmentId) -> {
                DataFragment fragment = fragments.get(Integer.toUnsignedLong(fragmentId));
                RoaringBitmap fragmentRows = addresses.forFragment(fragmentId)
                        .map(found -> found.wholeFragment() ? RoaringBitmap.bitmapOfRange(0, fragment.getPhysicalRows()) : found.offsets())
                        .orElseGet(RoaringBitmap::new);
                rows.merge(fragment.getId(), fragmentRows, (left, right) -> RoaringBitmap.or(left, right));
            });
        }
        return answered ? Optional.of(new Answer(rows, bytesRead)) : Optional.empty();
    }
}
