package io.lancetrino.tests.server;

import io.lancetrino.metadata.ArrowAllocators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.Fragment;
import org.lance.Ref;
import org.lance.WriteParams;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The demo the local server creates on first start, written by the Lance SDK itself: table {@code demo.trips} with
 * five versions on main (v1 empty, v2 1,000 trips tagged 'baseline', v3 +500 trips, v4 deletes fares under 5,
 * v5 +250 trips) and a branch 'experiment' forked from v3 with 100 trips of its own.
 */
public final class DemoWarehouse
{
    private static final String[] CITIES = {"Lisbon", "Oslo", "Kyoto", "Lima", "Accra", "Quebec"};
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("trip_id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("city", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("fare", FieldType.nullable(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)), null),
            new Field("started_at", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), null)));

    private DemoWarehouse() {}

    /**
     * {@code bin/serve} runs this once, before the server starts, with the warehouse directory as argument.
     */
    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: DemoWarehouse WAREHOUSE_DIR");
        }
        create(Path.of(args[0]));
    }

    public static Path create(Path warehouse)
            throws Exception
    {
        Path table = warehouse.resolve("demo").resolve("trips.lance");
        Files.createDirectories(table.getParent());
        String uri = table.toAbsolutePath().toString();
        try (BufferAllocator allocator = ArrowAllocators.newRootAllocator(Long.MAX_VALUE)) {
            WriteParams params = new WriteParams.Builder().build();
            Dataset.create(allocator, uri, SCHEMA, params).close();
            append(allocator, uri, 1, 0, 1000);
            append(allocator, uri, 2, 1000, 500);
            try (Dataset dataset = Dataset.open(uri, allocator)) {
                dataset.tags().create("baseline", 2);
                dataset.delete("fare < 5");
            }
            append(allocator, uri, 4, 1500, 250);
            try (Dataset dataset = Dataset.open(uri, allocator);
                    Dataset experiment = dataset.createBranch("experiment", Ref.ofMain(3))) {
                String branchUri = table.resolve("tree").resolve("experiment").toAbsolutePath().toString();
                append(allocator, branchUri, experiment.version(), 5000, 100);
            }
        }
        return table;
    }

    private static void append(BufferAllocator allocator, String uri, long readVersion, long firstId, int rows)
            throws Exception
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
            BigIntVector ids = (BigIntVector) root.getVector("trip_id");
            VarCharVector cities = (VarCharVector) root.getVector("city");
            Float8Vector fares = (Float8Vector) root.getVector("fare");
            TimeStampMicroVector started = (TimeStampMicroVector) root.getVector("started_at");
            root.allocateNew();
            for (int i = 0; i < rows; i++) {
                long id = firstId + i;
                ids.set(i, id);
                cities.setSafe(i, CITIES[(int) (id % CITIES.length)].getBytes(UTF_8));
                fares.set(i, 3.0 + (id * 37 % 4000) / 100.0);
                started.set(i, 1_767_225_600_000_000L + id * 97_000_000L);
            }
            root.setRowCount(rows);
            List<FragmentMetadata> fragments = Fragment.create(uri, allocator, root, new WriteParams.Builder().build());
            new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(readVersion), Map.of()).close();
        }
    }
}
