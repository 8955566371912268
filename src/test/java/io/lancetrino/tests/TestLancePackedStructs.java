package io.lancetrino.tests;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.Ref;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data files whose columns are not one per leaf, written by the Lance SDK: packed structs ({@code lance-encoding:packed},
 * one column in 2.0, 2.1 and 2.2 files; the 2.2 variable packed struct) and legacy blob columns
 * ({@code lance-encoding:blob}), each followed by other columns. Results are compared with the SDK's own scan
 * ({@link SdkScans}). Besides catalog {@code lance}, the warehouse is mounted with small splits and small batches so
 * reads start and stop inside the fragment.
 */
final class TestLancePackedStructs
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "p";
    private static final String SMALL_SPLITS = "lance_small_splits";
    private static final String SMALL_BATCHES = "lance_small_batches";
    private static final int ROWS = 40;

    private Path schemaDirectory;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-packed");
        closeAfterClass(() -> MoreFiles.deleteRecursively(warehouse, RecursiveDeleteOption.ALLOW_INSECURE));
        schemaDirectory = Files.createDirectories(warehouse.resolve(SCHEMA));
        QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).build();
        try {
            String location = warehouse.toAbsolutePath().toString();
            runner.createCatalog(SMALL_SPLITS, "lance", Map.of("lance.warehouse", location, "lance.max-split-rows", "7"));
            runner.createCatalog(SMALL_BATCHES, "lance", Map.of("lance.warehouse", location, "lance.read-batch-rows", "3"));
        }
        catch (Throwable e) {
            runner.close();
            throw e;
        }
        return runner;
    }

    @Test
    void testPackedStructFormat20()
    {
        assertPackedStruct(LanceFixtures.packedStruct(schemaDirectory, "packed_20", "2.0", false, ROWS), "packed_20", "b");
    }

    @Test
    void testPackedStructFormat21()
    {
        assertPackedStruct(LanceFixtures.packedStruct(schemaDirectory, "packed_21", "2.1", false, ROWS), "packed_21", "b");
    }

    @Test
    void testPackedStructFormat22()
    {
        assertPackedStruct(LanceFixtures.packedStruct(schemaDirectory, "packed_22", "2.2", false, ROWS), "packed_22", "b");
    }

    @Test
    void testVariablePackedStructFormat22()
    {
        assertPackedStruct(LanceFixtures.packedStruct(schemaDirectory, "packed_variable_22", "2.2", true, ROWS), "packed_variable_22", "s");
    }

    @Test
    void testPackedStructWithDeletions()
    {
        Path path = LanceFixtures.packedStruct(schemaDirectory, "packed_deletions", "2.1", false, ROWS);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, path)) {
            // scattered deletions: the rows read after the packed struct must skip exactly these
            dataset.delete("id % 5 = 2 OR id = 0");
        }
        assertPackedStruct(path, "packed_deletions", "b");
    }

    @Test
    void testInsertKeepsTheStructPacked()
    {
        Path path = LanceFixtures.packedStruct(schemaDirectory, "packed_insert", "2.1", false, 8);
        assertUpdate("INSERT INTO packed_insert VALUES (100, ROW(1000, 100.5), 'name-100', ARRAY[1, 2], ROW(200), 2.5), (101, ROW(1010, 101.5), NULL, NULL, NULL, NULL)", 2);
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, path)) {
            assertThat(dataset.getSchema().findField("ps").getMetadata()).containsEntry("lance-encoding:packed", "true");
            List<Fragment> fragments = dataset.getFragments();
            assertThat(fragments).hasSize(2);
            // the connector's file records the packed struct as one column, exactly as the SDK's file does
            int[] sdkFields = fragments.get(0).metadata().getFiles().getFirst().getFields();
            int[] insertedFields = fragments.get(1).metadata().getFiles().getFirst().getFields();
            assertThat(insertedFields).containsExactly(sdkFields);
            assertThat(fragments.get(1).metadata().getFiles().getFirst().getColumnIndices())
                    .containsExactly(fragments.get(0).metadata().getFiles().getFirst().getColumnIndices());
        }
        // the SDK reads the inserted rows back, and so does Trino
        List<MaterializedRow> sdkRows = SdkScans.scanRows(path, Ref.ofMain(), List.of());
        assertThat(sdkRows).hasSize(10);
        assertRows("SELECT * FROM packed_insert", sdkRows);
        assertRows("SELECT name, score FROM packed_insert WHERE id >= 100", List.of(
                new MaterializedRow(Arrays.asList("name-100", 2.5)),
                new MaterializedRow(Arrays.asList(null, null))));

        // compaction reads both fragments (columns after the struct through the dataset) and writes one packed file
        computeActual("ALTER TABLE packed_insert EXECUTE optimize");
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset dataset = LanceFixtures.open(allocator, path)) {
            assertThat(dataset.getFragments()).hasSize(1);
            assertThat(dataset.getFragments().getFirst().metadata().getFiles().getFirst().getFields()).containsExactly(0, 1, 4, 6, 8, 9);
        }
        assertThat(SdkScans.scanRows(path, Ref.ofMain(), List.of())).containsExactlyInAnyOrderElementsOf(sdkRows);
        assertRows("SELECT * FROM packed_insert", sdkRows);
    }

    @Test
    void testBlobColumnFormat20()
    {
        Path path = LanceFixtures.blobColumn(schemaDirectory, "blob_20", "2.0", ROWS);
        assertColumnsAfterBlob(path, "blob_20");
        // the SDK's file reader returns empty values after a NULL of a 2.0 blob column, so reading it is refused
        assertQueryFails("SELECT id, bl FROM blob_20", "Table p.blob_20@main version \\d+, fragment 0: column bl is a blob column \\(lance-encoding:blob\\) in data file .* of format 2.0, whose values the Lance SDK's file reader returns wrongly; select the other columns");
        assertQueryFails("SELECT count(*) FROM blob_20 WHERE bl IS NULL", ".*column bl is a blob column.*");
    }

    @Test
    void testBlobColumnFormat21()
    {
        Path path = LanceFixtures.blobColumn(schemaDirectory, "blob_21", "2.1", ROWS);
        assertColumnsAfterBlob(path, "blob_21");
        for (String catalog : List.of("lance", SMALL_SPLITS, SMALL_BATCHES)) {
            String qualified = "%s.%s.%s".formatted(catalog, SCHEMA, "blob_21");
            assertRows("SELECT id, bl FROM " + qualified, IntStream.range(0, ROWS)
                    .mapToObj(id -> new MaterializedRow(Arrays.asList((long) id, blob(id))))
                    .toList());
            assertRows("SELECT bl, name FROM %s WHERE id BETWEEN 9 AND 30".formatted(qualified), IntStream.rangeClosed(9, 30)
                    .mapToObj(id -> new MaterializedRow(Arrays.asList(blob(id), "name-" + id)))
                    .toList());
            assertRows("SELECT id FROM %s WHERE bl = X'%s'".formatted(qualified, "626c6f622d3235"), List.of(new MaterializedRow(List.of(25L))));
        }
    }

    private void assertPackedStruct(Path path, String table, String secondChild)
    {
        List<MaterializedRow> sdkRows = SdkScans.scanRows(path, Ref.ofMain(), List.of());
        assertThat(sdkRows).isNotEmpty();
        assertThat(computeActual("DESCRIBE " + table).getMaterializedRows().get(1).getField(1))
                .isEqualTo("row(\"a\" integer, \"%s\" %s)".formatted(secondChild, secondChild.equals("s") ? "varchar" : "double"));
        for (String catalog : List.of("lance", SMALL_SPLITS, SMALL_BATCHES)) {
            String qualified = "%s.%s.%s".formatted(catalog, SCHEMA, table);
            assertRows("SELECT * FROM " + qualified, sdkRows);
            // only a column after the packed struct, only the packed struct, a mix in another order
            assertSdkRows("SELECT name FROM " + qualified, path, List.of("name"));
            assertSdkRows("SELECT ps FROM " + qualified, path, List.of("ps"));
            assertSdkRows("SELECT score, pt, tags FROM " + qualified, path, List.of("score", "pt", "tags"));
            assertSdkRows("SELECT pt, ps, id FROM " + qualified, path, List.of("pt", "ps", "id"));
        }
        // one child of the packed struct
        assertRows("SELECT id, ps.a FROM " + table, project(sdkRows, row -> Arrays.asList(row.getField(0), ((MaterializedRow) row.getField(1)).getField(0))));
        assertRows("SELECT ps.%s, name FROM %s".formatted(secondChild, table), project(sdkRows, row -> Arrays.asList(((MaterializedRow) row.getField(1)).getField(1), row.getField(2))));
        // filters on a column after the packed struct and on the struct
        assertRows("SELECT id, name FROM %s WHERE score > 20".formatted(table),
                project(sdkRows.stream().filter(row -> row.getField(5) != null && (Double) row.getField(5) > 20).toList(), row -> Arrays.asList(row.getField(0), row.getField(2))));
        assertRows("SELECT id, score FROM %s WHERE ps.a < 100".formatted(table),
                project(sdkRows.stream().filter(row -> (Integer) ((MaterializedRow) row.getField(1)).getField(0) < 100).toList(), row -> Arrays.asList(row.getField(0), row.getField(5))));
        assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo((long) sdkRows.size());
    }

    /**
     * The SDK's scan gives blob descriptors, not the bytes: the columns after the blob are compared with it.
     */
    private void assertColumnsAfterBlob(Path path, String table)
    {
        List<MaterializedRow> sdkRows = SdkScans.scanRows(path, Ref.ofMain(), List.of("id", "name", "pt"));
        assertThat(sdkRows).hasSize(ROWS);
        for (String catalog : List.of("lance", SMALL_SPLITS, SMALL_BATCHES)) {
            String qualified = "%s.%s.%s".formatted(catalog, SCHEMA, table);
            assertRows("SELECT id, name, pt FROM " + qualified, sdkRows);
            assertSdkRows("SELECT name FROM " + qualified, path, List.of("name"));
            assertSdkRows("SELECT pt FROM " + qualified, path, List.of("pt"));
        }
    }

    private static byte[] blob(int id)
    {
        return id % 4 == 3 ? null : ("blob-" + id).getBytes(UTF_8);
    }

    private void assertSdkRows(String sql, Path path, List<String> columns)
    {
        assertRows(sql, SdkScans.scanRows(path, Ref.ofMain(), columns));
    }

    private void assertRows(String sql, List<MaterializedRow> expected)
    {
        MaterializedResult actual = computeActual(sql);
        assertThat(actual.getMaterializedRows()).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static List<MaterializedRow> project(List<MaterializedRow> rows, Function<MaterializedRow, List<Object>> projection)
    {
        return rows.stream().map(row -> new MaterializedRow(projection.apply(row))).toList();
    }
}
