package io.lancetrino.index;

import io.airlift.slice.Slice;
import io.lancetrino.metadata.ArrowAllocators;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.type.ArrayType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.WriteParams;
import org.lance.index.Index;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.LabelListIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** A label list index the SDK builds over a list of strings, against the lists the SDK reads back. */
final class TestLabelListIndex
{
    private static final String[] LABELS = {"red", "green", "blue", "cyan", "magenta", "yellow"};

    @Test
    void testLabelQueries(@TempDir Path directory)
            throws Exception
    {
        Schema schema = new Schema(List.of(new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
                List.of(new Field("item", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)))));
        long seed = Long.getLong("lance.index.seed", System.nanoTime());
        Random random = new Random(seed);
        String uri = directory.resolve("labels.lance").toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            WriteParams params = new WriteParams.Builder().withDataStorageVersion("2.2").withMaxRowsPerFile(2_000).build();
            Dataset.create(allocator, uri, schema, params).close();
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                root.allocateNew();
                ListVector list = (ListVector) root.getVector("tags");
                VarCharVector items = (VarCharVector) list.getDataVector();
                int rows = 5_000;
                int item = 0;
                for (int row = 0; row < rows; row++) {
                    if (random.nextInt(20) == 0) {
                        list.setNull(row);
                        continue;
                    }
                    int start = list.startNewValue(row);
                    int length = random.nextInt(4);
                    for (int j = 0; j < length; j++) {
                        items.setSafe(start + j, LABELS[random.nextInt(LABELS.length)].getBytes(UTF_8));
                    }
                    list.endValue(row, length);
                    item = start + length;
                }
                items.setValueCount(item);
                root.setRowCount(rows);
                List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, params);
                new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(1L), Map.of()).close();
            }
            List<Long> addresses = new ArrayList<>();
            List<Set<String>> lists = new ArrayList<>();
            Index index;
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                index = dataset.createIndex(List.of("tags"), IndexType.LABEL_LIST, Optional.of("tags_labels"),
                        IndexParams.builder().setScalarIndexParams(new LabelListIndexParams.Builder().build()).build(), true);
                try (LanceScanner scanner = dataset.newScan(new ScanOptions.Builder().columns(List.of("tags")).withRowAddress(true).useScalarIndex(false).build());
                        ArrowReader reader = scanner.scanBatches()) {
                    while (reader.loadNextBatch()) {
                        VectorSchemaRoot root = reader.getVectorSchemaRoot();
                        ListVector list = (ListVector) root.getVector("tags");
                        UInt8Vector rowAddresses = (UInt8Vector) root.getVector("_rowaddr");
                        for (int i = 0; i < root.getRowCount(); i++) {
                            addresses.add(rowAddresses.get(i));
                            List<?> values = list.getObject(i);
                            lists.add(values == null ? null : new HashSet<>(values.stream().map(Object::toString).toList()));
                        }
                    }
                }
            }

            Path indexDirectory = Path.of(uri, "_indices", index.uuid().toString());
            IndexFiles files = IndexFiles.of(new LocalFileSystem(Path.of("/")), Location.of("local:///" + indexDirectory.toString().substring(1)));
            LabelListIndexReader reader = ScalarIndexes.openLabelList(files, new ArrayType(VARCHAR), new IndexCache(1 << 20)).orElseThrow();
            for (int i = 0; i < 40; i++) {
                List<String> wanted = new ArrayList<>();
                for (int j = random.nextInt(3); j >= 0; j--) {
                    wanted.add(random.nextInt(10) == 0 ? "absent" : LABELS[random.nextInt(LABELS.length)]);
                }
                boolean all = random.nextBoolean();
                List<Slice> labels = wanted.stream().map(label -> utf8Slice(label)).toList();
                IndexAnswer answer = reader.searchLabels(labels, all);
                RowAddresses.Builder expected = RowAddresses.builder();
                for (int row = 0; row < addresses.size(); row++) {
                    Set<String> values = lists.get(row);
                    if (values != null && (all ? values.containsAll(wanted) : wanted.stream().anyMatch(values::contains))) {
                        expected.add(addresses.get(row));
                    }
                }
                assertThat(answer.exact()).isTrue();
                assertThat(answer.rows()).as("seed %s (-Dlance.index.seed=%s): %s of %s", seed, seed, all ? "all" : "any", wanted).isEqualTo(expected.build());
            }
        }
    }
}
