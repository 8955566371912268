package io.lancetrino.index;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.ReadOptions;
import org.lance.WriteParams;
import org.lance.index.Index;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A table the Lance SDK writes and indexes: {@code id} int64 (unsorted, duplicates, nulls), {@code cat} utf8 (a dozen
 * values and nulls), {@code score} float64, {@code day} date32 and {@code small} int32, in three fragments; then an
 * unindexed fragment is appended and some rows deleted. {@link #indexedVersion()} is the version the indexes were built at.
 */
final class IndexedTable
{
    static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("cat", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
            new Field("day", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
            new Field("small", FieldType.nullable(new ArrowType.Int(32, true)), null)));

    static final int ROWS_PER_FRAGMENT = 10_000;
    static final String[] CATEGORIES = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima"};

    private final String uri;
    private final long indexedVersion;
    private final List<Index> indexes;

    private IndexedTable(String uri, long indexedVersion, List<Index> indexes)
    {
        this.uri = uri;
        this.indexedVersion = indexedVersion;
        this.indexes = indexes;
    }

    /**
     * @param indexes index name to (column, kind, params JSON or null)
     */
    static IndexedTable create(BufferAllocator allocator, Path dir, String storageVersion, int rows, long seed, Map<String, IndexSpec> indexes)
    {
        String uri = dir.resolve("t.lance").toString();
        WriteParams params = new WriteParams.Builder()
                .withDataStorageVersion(storageVersion)
                .withMaxRowsPerFile(ROWS_PER_FRAGMENT)
                .build();
        Random random = new Random(seed);
        Dataset.create(allocator, uri, SCHEMA, params).close();
        append(allocator, uri, params, random, rows, 1);
        long version;
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            for (Map.Entry<String, IndexSpec> entry : indexes.entrySet()) {
                IndexSpec spec = entry.getValue();
                ScalarIndexParams scalar = spec.json() == null ? ScalarIndexParams.create(spec.type().name().toLowerCase(java.util.Locale.ROOT))
                        : ScalarIndexParams.create(spec.type().name().toLowerCase(java.util.Locale.ROOT), spec.json());
                dataset.createIndex(List.of(spec.column()), spec.type(), Optional.of(entry.getKey()), IndexParams.builder().setScalarIndexParams(scalar).build(), true);
            }
        }
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            version = dataset.version();
        }
        // an unindexed fragment, and deletions the indexes still hold
        append(allocator, uri, params, random, 3_000, version);
        try (Dataset dataset = Dataset.open(uri, allocator)) {
            dataset.delete("id % 97 = 3 OR small = 7");
        }
        try (Dataset dataset = Dataset.open(allocator, uri, new ReadOptions.Builder().setVersion(version).build())) {
            return new IndexedTable(uri, version, dataset.getIndexes());
        }
    }

    private static void append(BufferAllocator allocator, String uri, WriteParams params, Random random, int rows, long readVersion)
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            root.allocateNew();
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector cat = (VarCharVector) root.getVector("cat");
            Float8Vector score = (Float8Vector) root.getVector("score");
            DateDayVector day = (DateDayVector) root.getVector("day");
            IntVector small = (IntVector) root.getVector("small");
            for (int row = 0; row < rows; row++) {
                if (random.nextInt(100) < 4) {
                    id.setNull(row);
                }
                else {
                    id.setSafe(row, random.nextInt(6_000) - 1_000);
                }
                if (random.nextInt(100) < 7) {
                    cat.setNull(row);
                }
                else {
                    // skewed: early categories are frequent
                    cat.setSafe(row, CATEGORIES[Math.min(random.nextInt(CATEGORIES.length), random.nextInt(CATEGORIES.length))].getBytes(UTF_8));
                }
                if (random.nextInt(100) < 3) {
                    score.setNull(row);
                }
                else {
                    score.setSafe(row, Math.round(random.nextGaussian() * 10_000) / 100.0);
                }
                if (random.nextInt(100) < 5) {
                    day.setNull(row);
                }
                else {
                    // mostly increasing with the row, so zones of the zonemap prune
                    day.setSafe(row, 18_000 + row / 50 + random.nextInt(20));
                }
                if (random.nextInt(100) < 2) {
                    small.setNull(row);
                }
                else {
                    small.setSafe(row, random.nextInt(200));
                }
            }
            root.setRowCount(rows);
            List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, params);
            new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(readVersion), Map.of()).close();
        }
    }

    String uri()
    {
        return uri;
    }

    long indexedVersion()
    {
        return indexedVersion;
    }

    List<Index> indexes()
    {
        return indexes;
    }

    Index index(String name)
    {
        return indexes.stream().filter(index -> index.name().equals(name)).findFirst().orElseThrow();
    }

    Path indexDirectory(String name)
    {
        return Path.of(uri, "_indices", index(name).uuid().toString());
    }

    /** Row addresses of the indexed version's rows that match {@code filter}, by a flat scan without indexes. */
    Roaring64NavigableMap flatScan(BufferAllocator allocator, String filter)
            throws Exception
    {
        Roaring64NavigableMap addresses = new Roaring64NavigableMap();
        scan(allocator, filter, List.of("id"), root -> {
            UInt8Vector vector = (UInt8Vector) root.getVector("_rowaddr");
            for (int i = 0; i < root.getRowCount(); i++) {
                addresses.addLong(vector.get(i));
            }
        });
        return addresses;
    }

    /** Every row of the indexed version, as the SDK reads it: column name to Arrow values (getObject), and addresses. */
    Rows rows(BufferAllocator allocator)
            throws Exception
    {
        Map<String, List<Object>> values = new LinkedHashMap<>();
        List<Long> addresses = new ArrayList<>();
        List<String> columns = SCHEMA.getFields().stream().map(Field::getName).toList();
        columns.forEach(column -> values.put(column, new ArrayList<>()));
        scan(allocator, null, columns, root -> {
            UInt8Vector vector = (UInt8Vector) root.getVector("_rowaddr");
            for (int i = 0; i < root.getRowCount(); i++) {
                addresses.add(vector.get(i));
                for (String column : columns) {
                    values.get(column).add(root.getVector(column).getObject(i));
                }
            }
        });
        return new Rows(values, addresses);
    }

    record Rows(Map<String, List<Object>> values, List<Long> addresses) {}

    private void scan(BufferAllocator allocator, String filter, List<String> columns, Consumer<VectorSchemaRoot> batch)
            throws Exception
    {
        ScanOptions.Builder options = new ScanOptions.Builder()
                .columns(columns)
                .withRowAddress(true)
                .useScalarIndex(false);
        if (filter != null) {
            options.filter(filter);
        }
        try (Dataset dataset = Dataset.open(allocator, uri, new ReadOptions.Builder().setVersion(indexedVersion).build());
                LanceScanner scanner = dataset.newScan(options.build());
                ArrowReader reader = scanner.scanBatches()) {
            while (reader.loadNextBatch()) {
                batch.accept(reader.getVectorSchemaRoot());
            }
        }
    }

    record IndexSpec(String column, IndexType type, String json) {}
}
