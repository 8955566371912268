package io.lancetrino.index;

import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.FullZipLayout;
import io.lancetrino.metadata.ArrowAllocators;
import io.lancetrino.metadata.index.IndexKind;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.WriteParams;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * Indexes of a table large enough that the SDK writes their values differently: in one fragment of 300,000 rows a
 * bitmap of one of seven values spans five roaring containers, over 32 KiB, so {@code bitmap_page_lookup.lance}
 * stores each bitmap zstd-compressed in a FullZip page (below about 230,000 rows the bitmaps stay uncompressed, as in
 * TPC-H lineitem's {@code l_shipmode} at scale 0.01 but not at 0.1). The btree's data file holds the whole column in
 * one Lance page, of which a point lookup reads about one btree page.
 */
@TestInstance(PER_CLASS)
final class TestLargeIndexes
{
    private static final int ROWS = 300_000;
    private static final String[] MODES = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("k", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("mode", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));

    private final BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
    private final LocalFileSystem fileSystem = new LocalFileSystem(Path.of("/"));
    private final Map<String, String> tables = new LinkedHashMap<>();

    @BeforeAll
    void createTables(@TempDir Path directory)
    {
        for (String version : List.of("2.1", "2.2")) {
            String uri = directory.resolve(version).resolve("t.lance").toString();
            WriteParams params = new WriteParams.Builder().withDataStorageVersion(version).build();
            Random random = new Random(version.hashCode());
            try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
                root.allocateNew();
                BigIntVector k = (BigIntVector) root.getVector("k");
                VarCharVector mode = (VarCharVector) root.getVector("mode");
                for (int row = 0; row < ROWS; row++) {
                    // about four rows per key, in random order
                    k.setSafe(row, random.nextInt(ROWS / 4));
                    mode.setSafe(row, MODES[random.nextInt(MODES.length)].getBytes(UTF_8));
                }
                root.setRowCount(ROWS);
                Dataset.create(allocator, uri, SCHEMA, params).close();
                List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, params);
                new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(1L), Map.of()).close();
            }
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                dataset.createIndex(List.of("mode"), IndexType.BITMAP, Optional.of("mode_bitmap"), IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("bitmap")).build(), true);
                dataset.createIndex(List.of("k"), IndexType.BTREE, Optional.of("k_btree"), IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree")).build(), true);
            }
            tables.put(version, uri);
        }
    }

    @AfterAll
    void close()
    {
        allocator.close();
    }

    @Test
    void testLargeBitmapIndex()
            throws Exception
    {
        for (Map.Entry<String, String> table : tables.entrySet()) {
            Path directory = indexDirectory(table.getValue(), "mode_bitmap");
            // the case this test is about: each bitmap a zstd frame in a FullZip page
            FullZipLayout layout = page(directory.resolve(BitmapIndexReader.LOOKUP_FILE), 1).layout().getFullZipLayout();
            assertThat(layout.getValueCompression().getCompressionCase()).as(table.getKey()).isEqualTo(CompressiveEncoding.CompressionCase.GENERAL);

            IndexCache cache = new IndexCache(64L << 20);
            ScalarIndexReader reader = ScalarIndexes.open(IndexKind.BITMAP, files(directory), VARCHAR, cache).orElseThrow();
            long fileSize = Files.size(directory.resolve(BitmapIndexReader.LOOKUP_FILE));
            for (String mode : MODES) {
                IndexAnswer answer = reader.search(Domain.singleValue(VARCHAR, utf8Slice(mode)));
                assertThat(answer.rows()).as("%s %s", table.getKey(), mode).isEqualTo(flatScan(table.getValue(), "mode = '%s'".formatted(mode)));
                assertThat(answer.rows().cardinality()).isBetween(ROWS / 7L - 2_000, ROWS / 7L + 2_000);
                // one bitmap of seven is read, not the page of all of them
                assertThat(answer.bytesRead()).as("%s %s", table.getKey(), mode).isPositive().isLessThan(fileSize / 4);
            }
            // from the cache now
            assertThat(reader.search(Domain.singleValue(VARCHAR, utf8Slice("MAIL"))).bytesRead()).isZero();
            Domain several = Domain.create(ValueSet.ofRanges(Range.range(VARCHAR, utf8Slice("FOB"), true, utf8Slice("RAIL"), true), Range.equal(VARCHAR, utf8Slice("TRUCK"))), false);
            assertThat(ScalarIndexes.open(IndexKind.BITMAP, files(directory), VARCHAR, IndexCache.disabled()).orElseThrow().search(several).rows())
                    .isEqualTo(flatScan(table.getValue(), "(mode >= 'FOB' AND mode <= 'RAIL') OR mode = 'TRUCK'"));
            assertThat(reader.search(Domain.singleValue(VARCHAR, utf8Slice("BOAT"))).rows().isEmpty()).isTrue();
            // every key: the whole FullZip page, not narrowed
            IndexAnswer all = ScalarIndexes.open(IndexKind.BITMAP, files(directory), VARCHAR, IndexCache.disabled()).orElseThrow().search(Domain.notNull(VARCHAR));
            assertThat(all.rows().cardinality()).isEqualTo(ROWS);
        }
    }

    @Test
    void testLargeBTreeIndex()
            throws Exception
    {
        for (Map.Entry<String, String> table : tables.entrySet()) {
            Path directory = indexDirectory(table.getValue(), "k_btree");
            IndexCache cache = new IndexCache(64L << 20);
            ScalarIndexReader reader = ScalarIndexes.open(IndexKind.BTREE, files(directory), BIGINT, cache).orElseThrow();
            long dataSize = Files.size(directory.resolve(BTreeIndexReader.DATA_FILE));
            // btree pages of 4,096 rows
            long pageBytes = dataSize * 4_096 / ROWS;
            Random random = new Random(5);
            for (int i = 0; i < 6; i++) {
                long key = random.nextInt(ROWS / 4);
                IndexAnswer answer = reader.search(Domain.singleValue(BIGINT, key));
                assertThat(answer.rows()).as("%s k = %s", table.getKey(), key).isEqualTo(flatScan(table.getValue(), "k = " + key));
                System.out.printf("%s btree k = %s: %s bytes read, a btree page is %s bytes, the data file %s%n", table.getKey(), key, answer.bytesRead(), pageBytes, dataSize);
                // the page holding the key (or two, when it lies on a boundary), not the Lance page of the whole column
                assertThat(answer.bytesRead()).as("%s k = %s", table.getKey(), key).isPositive().isLessThan(3 * pageBytes);
            }
            Domain range = Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 1_000L, true, 1_200L, false)), false);
            assertThat(reader.search(range).rows()).isEqualTo(flatScan(table.getValue(), "k >= 1000 AND k < 1200"));
        }
    }

    private LancePage page(Path file, int column)
            throws Exception
    {
        LanceFileMetadata metadata = LanceFileMetadata.read(fileSystem.newInputFile(location(file)));
        return metadata.columns().get(column).pages().getFirst();
    }

    private RowAddresses flatScan(String uri, String filter)
            throws Exception
    {
        RowAddresses.Builder addresses = RowAddresses.builder();
        ScanOptions options = new ScanOptions.Builder()
                .columns(List.of("k"))
                .withRowAddress(true)
                .useScalarIndex(false)
                .filter(filter)
                .build();
        try (Dataset dataset = Dataset.open(uri, allocator);
                LanceScanner scanner = dataset.newScan(options);
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                UInt8Vector vector = (UInt8Vector) reader.getVectorSchemaRoot().getVector("_rowaddr");
                for (int i = 0; i < reader.getVectorSchemaRoot().getRowCount(); i++) {
                    addresses.add(vector.get(i));
                }
            }
        }
        return addresses.build();
    }

    private static Path indexDirectory(String uri, String name)
            throws Exception
    {
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                Dataset dataset = Dataset.open(uri, allocator)) {
            return Path.of(uri, "_indices", dataset.getIndexes().stream().filter(index -> index.name().equals(name)).findFirst().orElseThrow().uuid().toString());
        }
    }

    private IndexFiles files(Path directory)
    {
        return IndexFiles.of(fileSystem, location(directory));
    }

    private static Location location(Path path)
    {
        return Location.of("local:///" + path.toAbsolutePath().toString().substring(1));
    }
}
