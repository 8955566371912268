package io.lancetrino.sharing.server;

import io.lancetrino.metadata.ArrowAllocators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.schema.SqlExpressions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A warehouse table written by the Lance SDK: {@code tpch.orders} with
 * <ul>
 * <li>version 1: created empty</li>
 * <li>versions 2 to 5: four appends of 25 rows (fragments 0 to 3, ids 0 to 99)</li>
 * <li>version 6: delete {@code id < 5} (a deletion file on fragment 0)</li>
 * <li>tag {@code release} on version 3</li>
 * <li>branch {@code dev} from main version 6, and on it version 7: delete {@code id >= 95} (a deletion file under the
 * branch, data files under main's base path)</li>
 * </ul>
 */
final class SharingFixture
{
    static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(new ArrowType.Utf8()), null)));

    private SharingFixture() {}

    static Path createOrders(Path warehouse)
            throws Exception
    {
        Path root = warehouse.resolve("tpch/orders.lance");
        Files.createDirectories(root.getParent());
        String uri = root.toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
            for (int i = 0; i < 4; i++) {
                append(allocator, uri, i * 25L, 25);
            }
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                dataset.delete("id < 5");
                dataset.tags().create("release", 3);
                try (Dataset dev = dataset.createBranch("dev", Ref.ofMain(6))) {
                    dev.delete("id >= 95");
                }
            }
        }
        return root;
    }

    /**
     * {@code tpch.evolving}: version 1 created, 2 an append of 10 rows, 3 a column {@code score} added in place (new
     * data files for fragment 0), 4 the column {@code name} dropped.
     */
    static Path createEvolving(Path warehouse)
            throws Exception
    {
        Path root = warehouse.resolve("tpch/evolving.lance");
        Files.createDirectories(root.getParent());
        String uri = root.toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            Dataset.create(allocator, uri, SCHEMA, new WriteParams.Builder().build()).close();
            append(allocator, uri, 0, 10);
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                dataset.addColumns(new SqlExpressions.Builder().withExpression("score", "id * 2").build(), Optional.empty());
                dataset.dropColumns(List.of("name"));
            }
        }
        return root;
    }

    private static void append(BufferAllocator allocator, String uri, long first, int rows)
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
                new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(dataset.version()), Map.of()).close();
            }
        }
    }
}
