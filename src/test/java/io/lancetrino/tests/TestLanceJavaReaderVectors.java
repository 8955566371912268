package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.SdkScans;
import io.trino.testing.MaterializedRow;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Ref;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vector columns (fixed-size lists of floats and signed integers) of SDK-written datasets: the Java reader decodes
 * them, in MiniBlock (narrow) and FullZip (768-dim) pages, and returns the rows the SDK returns.
 */
final class TestLanceJavaReaderVectors
        extends AbstractJavaReaderTest
{
    private static final int ROWS = 2000;
    private static final int DIMENSION = 768;
    private static final List<String> COLUMNS = List.of("id", "emb", "wide", "small", "d4", "i8", "i64");

    TestLanceJavaReaderVectors()
    {
        super("lance-java-reader-vectors");
    }

    @Test
    void testVectorsTheSdkWrote()
    {
        for (String version : List.of("2.1", "2.2")) {
            String name = "vectors_" + version.replace('.', '_');
            Path path = LanceFixtures.table(warehouse.resolve("t"), name, SCHEMA, rows(), version, 1000);
            try (BufferAllocator allocator = LanceFixtures.newAllocator();
                    Dataset dataset = LanceFixtures.open(allocator, path)) {
                dataset.delete("id % 13 = 4 OR (id >= 1200 AND id < 1300)");
            }
            String select = "SELECT %s FROM %s".formatted(String.join(", ", COLUMNS), name);
            List<MaterializedRow> java = computeActual(reader("java"), select).getMaterializedRows();
            assertThat(java).hasSize(ROWS - 100 - countDeleted());
            assertEqualsIgnoreOrder(java, computeActual(reader("sdk"), select).getMaterializedRows());
            assertEqualsIgnoreOrder(java, SdkScans.scanRows(path, Ref.ofMain(), COLUMNS));

            // every vector column is decoded by the Java reader, none falls back to the SDK
            ReaderMetrics metrics = readerColumns(reader("java"), select);
            assertThat(metrics.javaColumns()).as("Java-decoded columns of %s", name).isGreaterThanOrEqualTo(COLUMNS.size());
            assertThat(metrics.sdkFallbackColumns()).as("SDK fallbacks of %s", name).isZero();
            assertThat(readerColumns(reader("sdk"), select).javaColumns()).isZero();

            for (String sql : List.of(
                    "SELECT id, emb FROM %s WHERE id BETWEEN 900 AND 1100".formatted(name),
                    "SELECT id, emb[1], emb[768], cardinality(emb), wide[100], small[2], d4[4], i8[16], i64[1] FROM " + name,
                    "SELECT count(*), count(emb), sum(small[3]), max(i64[3]) FROM " + name,
                    "SELECT id, reduce(emb, 0e0, (s, x) -> s + x * x, s -> s) FROM %s WHERE id %% 10 = 0".formatted(name))) {
                assertEqualsIgnoreOrder(computeActual(reader("java"), sql).getMaterializedRows(), computeActual(reader("sdk"), sql).getMaterializedRows());
            }
        }
    }

    private static int countDeleted()
    {
        int deleted = 0;
        for (int id = 0; id < ROWS; id++) {
            if (id % 13 == 4 && !(id >= 1200 && id < 1300)) {
                deleted++;
            }
        }
        return deleted;
    }

    /** A vector column; the fixtures write a null vector's items as nulls, so nullable vectors have nullable items. */
    private static Field vector(String name, int dimension, ArrowType item, boolean nullable)
    {
        return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(dimension), null), List.of(new Field("item", new FieldType(nullable, item, null), null)));
    }

    private static final ArrowType FLOAT32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);

    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            // 3 KiB per row: FullZip pages of bare values, as the benchmark's embeddings
            vector("emb", DIMENSION, FLOAT32, false),
            // FullZip records with a def level and an item bitmap
            vector("wide", 100, FLOAT32, true),
            // narrow: MiniBlock chunks, with null rows and null items
            vector("small", 8, FLOAT32, true),
            vector("d4", 4, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), true),
            vector("i8", 16, new ArrowType.Int(8, true), true),
            vector("i64", 3, new ArrowType.Int(64, true), false)));

    /** Seeded vectors, with null rows and null items in the nullable vector columns. */
    private static List<List<Object>> rows()
    {
        Random random = new Random(29);
        List<List<Object>> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            int i = (int) id;
            List<Object> emb = new ArrayList<>();
            for (int d = 0; d < DIMENSION; d++) {
                emb.add((float) random.nextGaussian());
            }
            List<Object> small = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                small.add((i + d) % 9 == 0 ? null : random.nextFloat() * 100);
            }
            List<Object> wide = new ArrayList<>();
            for (int d = 0; d < 100; d++) {
                wide.add((i + d) % 41 == 0 ? null : (float) d / (i + 1));
            }
            List<Object> d4 = Arrays.asList(i % 5 == 0 ? null : -random.nextDouble(), random.nextDouble(), (double) i, random.nextGaussian() * 1e9);
            List<Object> i8 = new ArrayList<>();
            for (int d = 0; d < 16; d++) {
                i8.add((i * 3 + d) % 11 == 0 ? null : (byte) random.nextInt(256));
            }
            List<Object> i64 = List.of(random.nextLong(), id, -id * 1_000_003L);
            rows.add(Arrays.asList(
                    id,
                    emb,
                    i % 37 == 5 ? null : wide,
                    i % 17 == 2 ? null : small,
                    i % 19 == 7 ? null : d4,
                    i % 23 == 11 ? null : i8,
                    i64));
        }
        return rows;
    }
}
