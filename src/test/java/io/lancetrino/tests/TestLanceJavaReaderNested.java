package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.ReaderMetrics;
import io.lancetrino.tests.fixtures.SdkScans;
import io.trino.testing.MaterializedRow;
import org.apache.arrow.memory.BufferAllocator;
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
import java.util.function.Supplier;
import java.util.stream.LongStream;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pure-Java file reader decodes list (array) and struct (row) columns the SDK wrote, from their leaves' rep/def
 * levels: the same rows as with {@code file_reader = 'sdk'} and as the SDK's own scan, over splits and batches that
 * cut through files and pages and with deleted rows, and the scan metrics show the Java reader decoded them.
 */
final class TestLanceJavaReaderNested
        extends AbstractJavaReaderTest
{
    private static final int ROWS = 5000;
    private static final List<String> NESTED = List.of("id", "tags", "nums", "grid", "st", "st_list");

    TestLanceJavaReaderNested()
    {
        super("lance-java-reader-nested");
    }

    @Test
    void testListsAndStructsTheSdkWrote()
    {
        for (String version : List.of("2.1", "2.2")) {
            String name = "nested_" + version.replace('.', '_');
            // three fragments written separately: the SDK fails to write a struct that one batch splits into files
            List<List<Object>> rows = rows();
            Path path = LanceFixtures.table(warehouse.resolve("t"), name, SCHEMA, rows.subList(0, 2000), version, ROWS);
            LanceFixtures.append(path, SCHEMA, rows.subList(2000, 3500));
            LanceFixtures.append(path, SCHEMA, rows.subList(3500, ROWS));
            try (BufferAllocator allocator = LanceFixtures.newAllocator();
                    Dataset dataset = LanceFixtures.open(allocator, path)) {
                dataset.delete("id % 13 = 4 OR (id >= 3100 AND id < 3350)");
            }
            String select = "SELECT %s FROM %s".formatted(String.join(", ", NESTED), name);
            List<MaterializedRow> java = computeActual(reader("java"), select).getMaterializedRows();
            assertThat(java).hasSize((int) LongStream.range(0, ROWS).filter(id -> id % 13 != 4 && (id < 3100 || id >= 3350)).count());
            assertEqualsIgnoreOrder(java, computeActual(reader("sdk"), select).getMaterializedRows());
            assertEqualsIgnoreOrder(java, SdkScans.scanRows(path, Ref.ofMain(), NESTED));
            ReaderMetrics metrics = readerColumns(reader("java"), select);
            assertThat(metrics.javaColumns()).as("Java-decoded columns of %s", name).isPositive();
            assertThat(metrics.sdkFallbackColumns()).as("SDK fallbacks of %s", name).isZero();

            // a fixed-size list (vector) column next to the nested columns is decoded by the Java reader too
            String withLongStrings = "SELECT id, tags, long_tags, st, vec FROM " + name;
            assertSameAsSdk(withLongStrings);
            ReaderMetrics mixed = readerColumns(reader("java"), withLongStrings);
            assertThat(mixed.javaColumns()).isPositive();
            assertThat(mixed.sdkFallbackColumns()).isZero();

            for (String sql : List.of(
                    "SELECT * FROM " + name,
                    "SELECT id, tags, st FROM %s WHERE id BETWEEN 1990 AND 2011".formatted(name),
                    "SELECT id, st.x, st.s, cardinality(nums), grid FROM %s WHERE st.flag".formatted(name),
                    "SELECT sum(n), count(*) FROM %s CROSS JOIN UNNEST(nums) AS u(n)".formatted(name),
                    "SELECT id, st_list FROM %s WHERE id %% 97 = 5".formatted(name))) {
                assertSameAsSdk(sql);
            }
        }
    }

    private static Field list(String name, Field item)
    {
        return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    }

    private static Field struct(String name, Field... fields)
    {
        return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(fields));
    }

    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            list("tags", Field.nullable("item", ArrowType.Utf8.INSTANCE)),
            list("nums", Field.nullable("item", new ArrowType.Int(64, true))),
            list("grid", list("row", Field.nullable("item", new ArrowType.Int(32, true)))),
            struct("st", Field.nullable("x", new ArrowType.Int(64, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE), Field.nullable("flag", ArrowType.Bool.INSTANCE)),
            struct("st_list", Field.nullable("k", new ArrowType.Int(32, true)), list("vals", Field.nullable("item", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)))),
            list("long_tags", Field.nullable("item", ArrowType.Utf8.INSTANCE)),
            new Field("vec", FieldType.nullable(new ArrowType.FixedSizeList(3)), List.of(Field.nullable("item", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE))))));

    /** Seeded rows: null and empty lists, null items, null structs and null fields. */
    private static List<List<Object>> rows()
    {
        Random random = new Random(29);
        List<List<Object>> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            int i = (int) id;
            rows.add(Arrays.asList(
                    id,
                    i % 11 == 0 ? null : items(random, i % 5, 17, () -> "t" + random.nextInt(40)),
                    i % 7 == 0 ? null : items(random, random.nextInt(6), 9, () -> random.nextLong(1_000_000) - 500_000),
                    i % 9 == 0 ? null : items(random, random.nextInt(4), 5, () -> items(random, random.nextInt(4), 7, () -> random.nextInt(1000))),
                    i % 6 == 0 ? null : Arrays.asList(i % 4 == 0 ? null : id * 3, i % 5 == 0 ? null : "s" + random.nextInt(100), i % 3 == 0 ? null : random.nextBoolean()),
                    i % 8 == 0 ? null : Arrays.asList(i % 3 == 0 ? null : random.nextInt(), i % 5 == 0 ? null : items(random, random.nextInt(3), 4, random::nextDouble)),
                    i % 12 == 0 ? null : items(random, random.nextInt(3), 0, () -> "long-" + "y".repeat(256 + random.nextInt(200))),
                    i % 14 == 0 ? null : List.of(random.nextFloat(), random.nextFloat(), (float) i)));
        }
        return rows;
    }

    /** {@code count} items, every {@code nullEvery}-th of them null (never when 0). */
    private static List<Object> items(Random random, int count, int nullEvery, Supplier<Object> item)
    {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(nullEvery > 0 && random.nextInt(nullEvery) == 0 ? null : item.get());
        }
        return items;
    }
}
