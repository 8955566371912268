package io.lancetrino.tests;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.execution.QueryStats;
import io.trino.operator.OperatorStats;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.lance.Ref;

import java.math.BigDecimal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.lancetrino.tests.fixtures.LanceFixtures.ALL_TYPES_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every SDK-written fixture read through Trino and compared, as a multiset of rows, with the Lance SDK's own scan of
 * the same version ({@link SdkScans}). Besides catalog {@code lance} (defaults), the same warehouse is mounted as
 * {@code lance_small_splits} ({@code lance.max-split-rows=7}: row-range splits inside fragments with deletions) and
 * {@code lance_small_batches} ({@code lance.read-batch-rows=3}: pages that end inside fragments and data files) and
 * {@code lance_tiny_splits} ({@code lance.max-split-rows=2}, for the small tables: row ranges inside nested columns).
 */
class TestLanceCompatibility
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "compat";
    private static final String SMALL_SPLITS = "lance_small_splits";
    private static final String SMALL_BATCHES = "lance_small_batches";
    private static final String TINY_SPLITS = "lance_tiny_splits";
    private static final int MANY_FRAGMENTS = 300;

    private Path allTypes;
    private Path allTypes20;
    private Path versions;
    private Path smallDeletions;
    private Path largeDeletions;
    private Path branches;
    private LanceFixtures.ShallowClone clone;
    private Path addedColumn;
    private Path renamedColumn;
    private Path v1Naming;
    private Path manyFragments;

    /** The data file reader every catalog of these tests reads with: the default, and the SDK in its own run. */
    protected String fileReader()
    {
        return "java";
    }

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-compat");
        closeAfterClass(() -> MoreFiles.deleteRecursively(warehouse, RecursiveDeleteOption.ALLOW_INSECURE));
        Path schema = Files.createDirectories(warehouse.resolve(SCHEMA));
        long start = System.nanoTime();
        allTypes = LanceFixtures.allTypes(schema, "all_types");
        allTypes20 = LanceFixtures.allTypes20(schema, "all_types_20");
        versions = LanceFixtures.versionsAndTags(schema, "versions");
        smallDeletions = LanceFixtures.smallDeletions(schema, "small_deletions");
        largeDeletions = LanceFixtures.largeDeletions(schema, "large_deletions");
        branches = LanceFixtures.branches(schema, "branches");
        clone = LanceFixtures.shallowClone(schema, "clone_source", "clone");
        addedColumn = LanceFixtures.addedColumn(schema, "added_column");
        renamedColumn = LanceFixtures.renamedColumn(schema, "renamed_column");
        v1Naming = LanceFixtures.v1Naming(schema, "v1_naming");
        manyFragments = LanceFixtures.manyFragments(schema, "many_fragments", MANY_FRAGMENTS);
        System.out.println("TestLanceCompatibility: fixtures written in %d ms".formatted((System.nanoTime() - start) / 1_000_000));

        start = System.nanoTime();
        QueryRunner runner = LanceQueryRunner.builder(warehouse).withSchema(SCHEMA).addConnectorProperty("lance.file-reader", fileReader()).build();
        try {
            String location = warehouse.toAbsolutePath().toString();
            runner.createCatalog(SMALL_SPLITS, "lance", Map.of("lance.warehouse", location, "lance.max-split-rows", "7", "lance.file-reader", fileReader()));
            runner.createCatalog(SMALL_BATCHES, "lance", Map.of("lance.warehouse", location, "lance.read-batch-rows", "3", "lance.file-reader", fileReader()));
            runner.createCatalog(TINY_SPLITS, "lance", Map.of("lance.warehouse", location, "lance.max-split-rows", "2", "lance.file-reader", fileReader()));
        }
        catch (Throwable e) {
            runner.close();
            throw e;
        }
        System.out.println("TestLanceCompatibility: query runner started in %d ms".formatted((System.nanoTime() - start) / 1_000_000));
        return runner;
    }

    // -----------------------------------------------------------------------------------------------------------------
    // all types

    @Test
    void testAllTypesColumnTypes()
    {
        Map<String, String> expected = ImmutableMap.<String, String>builder()
                .put("id", "bigint")
                .put("c_bool", "boolean")
                .put("c_int8", "tinyint")
                .put("c_int16", "smallint")
                .put("c_int32", "integer")
                .put("c_int64", "bigint")
                .put("c_uint8", "smallint")
                .put("c_uint16", "integer")
                .put("c_uint32", "bigint")
                .put("c_uint64", "decimal(20,0)")
                .put("c_float16", "real")
                .put("c_float32", "real")
                .put("c_float64", "double")
                .put("c_decimal_10_2", "decimal(10,2)")
                .put("c_decimal_38_10", "decimal(38,10)")
                .put("c_utf8", "varchar")
                .put("c_large_utf8", "varchar")
                .put("c_binary", "varbinary")
                .put("c_large_binary", "varbinary")
                .put("c_date32", "date")
                .put("c_time64_us", "time(6)")
                .put("c_time32_ms", "time(3)")
                .put("c_ts_us", "timestamp(6)")
                .put("c_ts_us_utc", "timestamp(6) with time zone")
                .put("c_ts_ns", "timestamp(9)")
                .put("c_list_int32", "array(integer)")
                .put("c_embedding", "array(real)")
                .put("c_struct", "row(\"x\" integer, \"y\" varchar)")
                .put("c_list_struct", "array(row(\"a\" bigint))")
                .put("c_dict", "varchar")
                .buildOrThrow();
        assertThat(expected.keySet()).containsExactlyElementsOf(columnNames());
        for (String table : List.of("all_types", "all_types_20")) {
            List<List<Object>> described = computeActual("DESCRIBE " + table).getMaterializedRows().stream()
                    .map(row -> List.of(row.getField(0), row.getField(1)))
                    .toList();
            assertThat(described).as(table)
                    .containsExactlyElementsOf(expected.entrySet().stream().map(entry -> List.<Object>of(entry.getKey(), entry.getValue())).toList());
            // the types of a result carry the same names
            assertThat(computeActual("SELECT * FROM " + table).getTypes().stream().map(type -> type.getDisplayName()).toList()).as(table)
                    .containsExactlyElementsOf(expected.values());
        }
    }

    @Test
    void testAllTypes()
    {
        assertAllTypes("all_types", allTypes, LanceFixtures.ALL_TYPES_ROWS);
    }

    @Test
    void testAllTypes20()
    {
        assertAllTypes("all_types_20", allTypes20, LanceFixtures.ALL_TYPES_20_ROWS);
    }

    private void assertAllTypes(String table, Path path, List<List<Object>> documented)
    {
        List<MaterializedRow> sdkRows = SdkScans.scanRows(path, Ref.ofMain(), List.of());
        // the oracle agrees with what the fixture documents, so a disagreement below is between Trino and the SDK
        assertThat(sdkRows).containsExactlyInAnyOrderElementsOf(documented.stream().map(SdkScans::toMaterializedRow).toList());

        for (String catalog : List.of("lance", SMALL_SPLITS, SMALL_BATCHES, TINY_SPLITS)) {
            assertRows("SELECT * FROM %s.%s.%s".formatted(catalog, SCHEMA, table), sdkRows);
        }
        assertThat(scanSplits("SELECT * FROM %s.%s.%s".formatted(TINY_SPLITS, SCHEMA, table), sdkRows)).isEqualTo(3);
        assertSdkRows("SELECT c_list_struct, c_struct, c_dict FROM %s.%s.%s".formatted(TINY_SPLITS, SCHEMA, table), path, Ref.ofMain(), List.of("c_list_struct", "c_struct", "c_dict"));
        // each column alone, and a few columns in an order other than the table's
        for (String column : columnNames()) {
            assertSdkRows("SELECT %s FROM %s".formatted(column, table), path, Ref.ofMain(), List.of(column));
        }
        assertSdkRows("SELECT c_struct, c_uint64, id FROM " + table, path, Ref.ofMain(), List.of("c_struct", "c_uint64", "id"));
        assertSdkRows("SELECT c_list_struct, c_embedding, c_dict, c_ts_ns FROM " + table, path, Ref.ofMain(), List.of("c_list_struct", "c_embedding", "c_dict", "c_ts_ns"));

        // struct fields through dereference, list cardinality
        assertRows("SELECT id, c_struct.x, c_struct.y FROM " + table, project(sdkRows, row -> {
            MaterializedRow struct = (MaterializedRow) value(row, "c_struct");
            return Arrays.asList(value(row, "id"), struct == null ? null : struct.getField(0), struct == null ? null : struct.getField(1));
        }));
        assertRows("SELECT id, cardinality(c_list_int32), cardinality(c_list_struct) FROM " + table, project(sdkRows, row -> Arrays.asList(
                value(row, "id"),
                value(row, "c_list_int32") == null ? null : (long) ((List<?>) value(row, "c_list_int32")).size(),
                value(row, "c_list_struct") == null ? null : (long) ((List<?>) value(row, "c_list_struct")).size())));

        // filters on columns (applied by the engine over what the connector reads)
        assertRows("SELECT * FROM %s WHERE c_int32 > 0".formatted(table),
                filter(sdkRows, row -> value(row, "c_int32") != null && (Integer) value(row, "c_int32") > 0));
        assertRows("SELECT id, c_uint64 FROM %s WHERE c_uint64 = DECIMAL '18446744073709551615'".formatted(table),
                List.of(new MaterializedRow(Arrays.asList(2L, new BigDecimal("18446744073709551615")))));
        assertRows("SELECT id FROM %s WHERE c_uint64 > 9223372036854775807".formatted(table), project(
                filter(sdkRows, row -> value(row, "c_uint64") != null && ((BigDecimal) value(row, "c_uint64")).compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0),
                row -> List.of(value(row, "id"))));
        assertRows("SELECT * FROM %s WHERE c_ts_ns < TIMESTAMP '1970-01-01 00:00:00.000000000'".formatted(table),
                filter(sdkRows, row -> value(row, "c_ts_ns") != null && ((LocalDateTime) value(row, "c_ts_ns")).isBefore(LocalDateTime.of(1970, 1, 1, 0, 0))));
        assertRows("SELECT * FROM %s WHERE c_utf8 IS NULL".formatted(table), filter(sdkRows, row -> value(row, "c_utf8") == null));
        assertRows("SELECT id, c_dict FROM %s WHERE c_dict = 'red'".formatted(table), project(
                filter(sdkRows, row -> "red".equals(value(row, "c_dict"))),
                row -> List.of(value(row, "id"), value(row, "c_dict"))));
        assertRows("SELECT id FROM %s WHERE c_struct.x IS NULL".formatted(table), project(
                filter(sdkRows, row -> value(row, "c_struct") == null || ((MaterializedRow) value(row, "c_struct")).getField(0) == null),
                row -> List.of(value(row, "id"))));
        assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo((long) sdkRows.size());
    }

    // -----------------------------------------------------------------------------------------------------------------
    // versions and tags

    @Test
    void testVersionsAndTags()
    {
        for (long version = 1; version <= 4; version++) {
            assertVersion("versions", versions, "FOR VERSION AS OF " + version, Ref.ofMain(version));
            assertVersion("versions", versions, "FOR VERSION AS OF 'main@%s'".formatted(version), Ref.ofMain(version));
        }
        // every integer literal type
        assertVersion("versions", versions, "FOR VERSION AS OF TINYINT '3'", Ref.ofMain(3));
        assertVersion("versions", versions, "FOR VERSION AS OF SMALLINT '3'", Ref.ofMain(3));
        assertVersion("versions", versions, "FOR VERSION AS OF INTEGER '3'", Ref.ofMain(3));
        assertVersion("versions", versions, "FOR VERSION AS OF BIGINT '3'", Ref.ofMain(3));
        assertVersion("versions", versions, "FOR VERSION AS OF 'gold'", Ref.ofTag("gold"));
        assertVersion("versions", versions, "FOR VERSION AS OF 'tag:gold'", Ref.ofTag("gold"));
        assertVersion("versions", versions, "FOR VERSION AS OF 'v3'", Ref.ofTag("v3"));
        assertVersion("versions", versions, "", Ref.ofMain());
        assertVersion("versions", versions, "FOR VERSION AS OF 'main'", Ref.ofMain());
        // documented contents, so that a wrong oracle cannot hide a wrong version
        assertThat(SdkScans.ids(versions, Ref.ofMain(3))).isEqualTo(range(5, 20));
        assertThat(SdkScans.ids(versions, Ref.ofTag("gold"))).isEqualTo(range(0, 20));

        // LIMIT stops split planning; the rows still come from the right version
        List<Long> latest = SdkScans.ids(versions, Ref.ofMain());
        List<MaterializedRow> limited = computeActual("SELECT id FROM versions LIMIT 3").getMaterializedRows();
        assertThat(limited).hasSize(3);
        assertThat(limited).extracting(row -> (Long) row.getField(0)).doesNotHaveDuplicates().isSubsetOf(latest);
        // version 3: the first fragment has 5 of its 10 rows deleted, so the limit needs the second fragment too
        List<Long> third = SdkScans.ids(versions, Ref.ofMain(3));
        for (int limit : List.of(1, 5, 6, 12, 15, 100)) {
            List<MaterializedRow> rows = computeActual("SELECT id FROM versions FOR VERSION AS OF 3 LIMIT " + limit).getMaterializedRows();
            assertThat(rows).as("LIMIT %s", limit).hasSize(Math.min(limit, third.size()));
            assertThat(rows).extracting(row -> (Long) row.getField(0)).doesNotHaveDuplicates().isSubsetOf(third);
        }
    }

    // -----------------------------------------------------------------------------------------------------------------
    // deletions

    @Test
    void testSmallDeletions()
    {
        assertThat(SdkScans.ids(smallDeletions, Ref.ofMain())).isEqualTo(LongStream.range(0, 2000).filter(id -> id % 100 != 7).boxed().toList());
        for (String catalog : List.of("lance", SMALL_SPLITS, SMALL_BATCHES)) {
            assertDeletions(catalog, "small_deletions", smallDeletions, List.of(Ref.ofMain(), Ref.ofMain(1), Ref.ofMain(2)));
        }
    }

    @Test
    void testLargeDeletions()
    {
        assertThat(SdkScans.ids(largeDeletions, Ref.ofMain())).isEqualTo(LongStream.range(0, 20_000).filter(id -> id % 20 >= 7).boxed().toList());
        for (String catalog : List.of("lance", SMALL_BATCHES)) {
            assertDeletions(catalog, "large_deletions", largeDeletions, List.of(Ref.ofMain(), Ref.ofMain(1), Ref.ofMain(2)));
        }

        // one fragment of 20,000 rows with a Roaring deletion vector read as ceil(20000 / 7) row-range splits, most of
        // them holding deleted rows; each split (thousands, so only the version with deletions) reads the vector for its range
        String table = "%s.%s.large_deletions".formatted(SMALL_SPLITS, SCHEMA);
        List<MaterializedRow> expected = SdkScans.scanRows(largeDeletions, Ref.ofMain(), List.of());
        assertThat(scanSplits("SELECT * FROM " + table, expected)).isEqualTo((20_000 + 6) / 7);
        // count(*) reads no data file, only the deletion vector of every split that covers part of the fragment
        assertThat(computeScalar("SELECT count(*) FROM " + table)).isEqualTo(13_000L);
    }

    private void assertDeletions(String catalog, String table, Path path, List<Ref> refs)
    {
        String name = "%s.%s.%s".formatted(catalog, SCHEMA, table);
        for (Ref ref : refs) {
            String version = ref.getVersionNumber().map(number -> " FOR VERSION AS OF " + number).orElse("");
            List<MaterializedRow> expected = SdkScans.scanRows(path, ref, List.of());
            assertRows("SELECT * FROM " + name + version, expected);
            assertThat(computeScalar("SELECT count(*) FROM " + name + version)).as("%s%s count", name, version)
                    .isEqualTo(SdkScans.countRows(path, ref))
                    .isEqualTo((long) expected.size());
            long sum = expected.stream().mapToLong(row -> (Long) row.getField(0)).sum();
            long named = expected.stream().filter(row -> row.getField(1) != null).count();
            assertRows("SELECT sum(id), count(name), min(id), max(id) FROM " + name + version, List.of(new MaterializedRow(Arrays.asList(
                    sum,
                    named,
                    expected.stream().mapToLong(row -> (Long) row.getField(0)).min().orElseThrow(),
                    expected.stream().mapToLong(row -> (Long) row.getField(0)).max().orElseThrow()))));
            // count(*) with a filter reads the data
            long even = expected.stream().filter(row -> (Long) row.getField(0) % 2 == 0).count();
            assertThat(computeScalar("SELECT count(*) FROM " + name + version + " WHERE id % 2 = 0")).as("%s%s even", name, version).isEqualTo(even);
        }
    }

    // -----------------------------------------------------------------------------------------------------------------
    // branches, clones

    @Test
    void testBranches()
    {
        assertVersion("branches", branches, "FOR VERSION AS OF 'dev'", Ref.ofBranch("dev"));
        assertVersion("branches", branches, "FOR VERSION AS OF 'branch:dev'", Ref.ofBranch("dev"));
        for (long version = 2; version <= 4; version++) {
            assertVersion("branches", branches, "FOR VERSION AS OF 'dev@%s'".formatted(version), Ref.ofBranch("dev", version));
        }
        assertVersion("branches", branches, "FOR VERSION AS OF 'feat/x'", Ref.ofBranch("feat/x"));
        assertVersion("branches", branches, "FOR VERSION AS OF 'feat/x@3'", Ref.ofBranch("feat/x", 3));
        assertVersion("branches", branches, "FOR VERSION AS OF 'feat/x@4'", Ref.ofBranch("feat/x", 4));
        assertVersion("branches", branches, "FOR VERSION AS OF 'devtag'", Ref.ofTag("devtag"));
        for (long version = 1; version <= 3; version++) {
            assertVersion("branches", branches, "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        assertVersion("branches", branches, "", Ref.ofMain());
        // documented contents
        assertThat(SdkScans.ids(branches, Ref.ofBranch("feat/x"))).isEqualTo(ids(0, 20, 100, 105, 200, 203));
        assertThat(SdkScans.ids(branches, Ref.ofBranch("dev", 3))).isEqualTo(ids(0, 20, 100, 105));
        assertThat(SdkScans.ids(branches, Ref.ofMain())).isEqualTo(range(0, 25));
    }

    @Test
    void testShallowClone()
    {
        // the clone starts at the source's version 3; its first fragments resolve through a base path to the source
        for (long version = 3; version <= 4; version++) {
            assertVersion("clone", clone.target(), "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        assertVersion("clone", clone.target(), "", Ref.ofMain());
        for (long version = 1; version <= 4; version++) {
            assertVersion("clone_source", clone.source(), "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        assertVersion("clone_source", clone.source(), "", Ref.ofMain());
        for (String catalog : List.of(SMALL_SPLITS, SMALL_BATCHES, TINY_SPLITS)) {
            assertRows("SELECT * FROM %s.%s.clone".formatted(catalog, SCHEMA), SdkScans.scanRows(clone.target(), Ref.ofMain(), List.of()));
            assertThat(computeScalar("SELECT count(*) FROM %s.%s.clone FOR VERSION AS OF 3".formatted(catalog, SCHEMA))).isEqualTo(18L);
        }
        List<Long> withoutDeleted = LongStream.range(0, 20).filter(id -> id != 3 && id != 13).boxed().toList();
        assertThat(SdkScans.ids(clone.target(), Ref.ofMain())).isEqualTo(ImmutableList.<Long>builder().addAll(withoutDeleted).addAll(range(100, 105)).build());
        // the clone's fragments from the source do point at the source
        assertThat(computeScalar("SELECT count(*) FROM \"clone$fragments\" WHERE base_path IS NOT NULL")).isEqualTo(2L);
        assertQueryFails("SELECT * FROM clone FOR VERSION AS OF 1", "(?si).*version 1\\b.*");
    }

    // -----------------------------------------------------------------------------------------------------------------
    // schema evolution

    @Test
    void testAddedColumn()
    {
        // version 1 has no column doubled at all
        assertThat(computeActual("SELECT * FROM added_column FOR VERSION AS OF 1").getColumnNames()).containsExactly("id", "name");
        assertQueryFails("SELECT doubled FROM added_column FOR VERSION AS OF 1", "(?si).*column 'doubled' cannot be resolved.*");
        for (long version = 1; version <= 3; version++) {
            assertVersion("added_column", addedColumn, "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        assertVersion("added_column", addedColumn, "", Ref.ofMain());
        for (long version = 2; version <= 3; version++) {
            String at = " FOR VERSION AS OF " + version;
            assertSdkRows("SELECT doubled FROM added_column" + at, addedColumn, Ref.ofMain(version), List.of("doubled"));
            assertSdkRows("SELECT doubled, id FROM added_column" + at, addedColumn, Ref.ofMain(version), List.of("doubled", "id"));
            assertSdkRows("SELECT name, doubled FROM added_column" + at, addedColumn, Ref.ofMain(version), List.of("name", "doubled"));
        }
        // every row has doubled = 2 * id, including those written before the column existed
        assertThat(computeScalar("SELECT count(*) FROM added_column WHERE doubled = 2 * id")).isEqualTo(15L);
        assertThat(computeScalar("SELECT count(*) FROM added_column FOR VERSION AS OF 2 WHERE doubled = 2 * id")).isEqualTo(10L);
        for (String catalog : List.of(SMALL_SPLITS, SMALL_BATCHES, TINY_SPLITS)) {
            assertRows("SELECT * FROM %s.%s.added_column".formatted(catalog, SCHEMA), SdkScans.scanRows(addedColumn, Ref.ofMain(), List.of()));
            assertRows("SELECT doubled, name FROM %s.%s.added_column FOR VERSION AS OF 2".formatted(catalog, SCHEMA), SdkScans.scanRows(addedColumn, Ref.ofMain(2), List.of("doubled", "name")));
        }
    }

    @Test
    void testRenamedColumn()
    {
        assertThat(computeActual("SELECT * FROM renamed_column").getColumnNames()).containsExactly("id", "new_name");
        assertVersion("renamed_column", renamedColumn, "", Ref.ofMain());
        assertSdkRows("SELECT new_name FROM renamed_column", renamedColumn, Ref.ofMain(), List.of("new_name"));
        assertSdkRows("SELECT new_name, id FROM renamed_column", renamedColumn, Ref.ofMain(), List.of("new_name", "id"));
        assertRows("SELECT new_name FROM renamed_column", LongStream.range(0, 10).mapToObj(id -> new MaterializedRow(List.of("v-" + id))).toList());
        for (long version = 1; version <= 3; version++) {
            assertVersion("renamed_column", renamedColumn, "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        // version 1 still calls the column old_name; version 2 renamed it without rewriting the file
        assertThat(computeActual("SELECT * FROM renamed_column FOR VERSION AS OF 1").getColumnNames()).containsExactly("id", "old_name");
        assertSdkRows("SELECT old_name FROM renamed_column FOR VERSION AS OF 1", renamedColumn, Ref.ofMain(1), List.of("old_name"));
        assertSdkRows("SELECT new_name FROM renamed_column FOR VERSION AS OF 2", renamedColumn, Ref.ofMain(2), List.of("new_name"));
        assertQueryFails("SELECT new_name FROM renamed_column FOR VERSION AS OF 1", "(?si).*column 'new_name' cannot be resolved.*");
        assertSdkRows("SELECT new_name FROM %s.%s.renamed_column".formatted(TINY_SPLITS, SCHEMA), renamedColumn, Ref.ofMain(), List.of("new_name"));
    }

    // -----------------------------------------------------------------------------------------------------------------
    // manifest naming, many fragments

    @Test
    void testManifestNaming()
    {
        // V1 names (_versions/<n>.manifest)
        assertThat(manifestNames(v1Naming)).containsExactly("1.manifest", "2.manifest");
        for (long version = 1; version <= 2; version++) {
            assertVersion("v1_naming", v1Naming, "FOR VERSION AS OF " + version, Ref.ofMain(version));
        }
        assertVersion("v1_naming", v1Naming, "", Ref.ofMain());
        assertThat(SdkScans.ids(v1Naming, Ref.ofMain())).isEqualTo(range(0, 15));
        // V2 names (the default: inverted zero-padded numbers), as the versions table is written
        assertThat(manifestNames(versions)).hasSize(4).allMatch(name -> name.matches("\\d{20}\\.manifest"));
        assertThat(manifestNames(addedColumn)).hasSize(3).allMatch(name -> name.matches("\\d{20}\\.manifest"));
        assertVersion("versions", versions, "FOR VERSION AS OF 1", Ref.ofMain(1));
        assertVersion("versions", versions, "FOR VERSION AS OF 4", Ref.ofMain(4));
    }

    @Test
    void testManyFragments()
    {
        List<MaterializedRow> expected = SdkScans.scanRows(manyFragments, Ref.ofMain(), List.of());
        assertThat(expected).hasSize(4 * MANY_FRAGMENTS);
        assertRows("SELECT * FROM many_fragments", expected);
        assertThat(computeScalar("SELECT count(*) FROM many_fragments")).isEqualTo((long) expected.size());
        assertThat(computeScalar("SELECT sum(id) FROM many_fragments")).isEqualTo(LongStream.range(0, 4L * MANY_FRAGMENTS).sum());
        assertThat(computeScalar("SELECT count(*) FROM \"many_fragments$fragments\"")).isEqualTo((long) MANY_FRAGMENTS);
        assertThat(scanSplits("SELECT * FROM many_fragments", expected)).isEqualTo(MANY_FRAGMENTS);
        // LIMIT plans only the fragments it needs
        assertThat(computeActual("SELECT id FROM many_fragments LIMIT 3").getRowCount()).isEqualTo(3);
        assertThat(scanSplits("SELECT id FROM many_fragments LIMIT 3", 3)).isLessThan(MANY_FRAGMENTS);
    }

    @Test
    void testSmallSplits()
    {
        // two fragments of 1,000 rows with Arrow deletion files: 143 splits each (large_deletions: see testLargeDeletions)
        assertThat(scanSplits("SELECT * FROM %s.%s.small_deletions".formatted(SMALL_SPLITS, SCHEMA), SdkScans.scanRows(smallDeletions, Ref.ofMain(), List.of()))).isEqualTo(2 * 143);
        assertThat(scanSplits("SELECT * FROM %s.%s.all_types".formatted(SMALL_SPLITS, SCHEMA), SdkScans.scanRows(allTypes, Ref.ofMain(), List.of()))).isEqualTo(1);
        // version 3 of versions: fragments of 10 rows whose first 5 rows are deleted in the first
        assertRows("SELECT * FROM %s.%s.versions FOR VERSION AS OF 3".formatted(SMALL_SPLITS, SCHEMA), SdkScans.scanRows(versions, Ref.ofMain(3), List.of()));
        assertThat(computeScalar("SELECT count(*) FROM %s.%s.versions FOR VERSION AS OF 3".formatted(SMALL_SPLITS, SCHEMA))).isEqualTo(15L);
        assertRows("SELECT * FROM %s.%s.branches FOR VERSION AS OF 'feat/x'".formatted(SMALL_SPLITS, SCHEMA), SdkScans.scanRows(branches, Ref.ofBranch("feat/x"), List.of()));
    }

    // -----------------------------------------------------------------------------------------------------------------

    /**
     * The rows and the count of {@code table} at {@code version} (SQL after the table name) equal the SDK's at {@code ref}.
     */
    private void assertVersion(String table, Path path, String version, Ref ref)
    {
        String from = (table + " " + version).strip();
        List<MaterializedRow> expected = SdkScans.scanRows(path, ref, List.of());
        assertRows("SELECT * FROM " + from, expected);
        assertThat(computeScalar("SELECT count(*) FROM " + from)).as("SELECT count(*) FROM %s", from)
                .isEqualTo(SdkScans.countRows(path, ref))
                .isEqualTo((long) expected.size());
    }

    private void assertSdkRows(String sql, Path path, Ref ref, List<String> columns)
    {
        assertRows(sql, SdkScans.scanRows(path, ref, columns));
    }

    private void assertRows(String sql, List<MaterializedRow> expected)
    {
        MaterializedResult actual = computeActual(sql);
        assertThat(actual.getMaterializedRows()).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Splits the table scan of {@code sql} ran; the query must return {@code rows} rows. */
    private long scanSplits(String sql, long rows)
    {
        long[] splits = new long[1];
        assertQueryStats(getSession(), sql,
                stats -> splits[0] = scanDrivers(stats),
                result -> assertThat(result.getRowCount()).as(sql).isEqualTo(rows));
        return splits[0];
    }

    /** Splits the table scan of {@code sql} ran; the query must return {@code expected} in any order. */
    private long scanSplits(String sql, List<MaterializedRow> expected)
    {
        long[] splits = new long[1];
        assertQueryStats(getSession(), sql,
                stats -> splits[0] = scanDrivers(stats),
                result -> assertThat(result.getMaterializedRows()).as(sql).containsExactlyInAnyOrderElementsOf(expected));
        return splits[0];
    }

    private static long scanDrivers(QueryStats stats)
    {
        List<OperatorStats> scans = stats.getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().equals("TableScanOperator") || operator.getOperatorType().equals("ScanFilterAndProjectOperator"))
                .toList();
        assertThat(scans).isNotEmpty();
        return scans.stream().mapToLong(OperatorStats::getTotalDrivers).sum();
    }

    private static List<String> columnNames()
    {
        return ALL_TYPES_SCHEMA.getFields().stream().map(Field::getName).toList();
    }

    private static Object value(MaterializedRow row, String column)
    {
        return row.getField(columnNames().indexOf(column));
    }

    private static List<MaterializedRow> filter(List<MaterializedRow> rows, Predicate<MaterializedRow> predicate)
    {
        List<MaterializedRow> result = rows.stream().filter(predicate).toList();
        assertThat(result).as("a filter that selects nothing tests nothing").isNotEmpty();
        return result;
    }

    private static List<MaterializedRow> project(List<MaterializedRow> rows, Function<MaterializedRow, List<Object>> projection)
    {
        return rows.stream()
                .map(row -> new MaterializedRow(new ArrayList<>(projection.apply(row))))
                .collect(toImmutableList());
    }

    private static List<Long> range(long from, long to)
    {
        return LongStream.range(from, to).boxed().toList();
    }

    private static List<Long> ids(long... ranges)
    {
        return LanceFixtures.idNameRows(ranges).stream().map(row -> (Long) row.get(0)).toList();
    }

    private static List<String> manifestNames(Path dataset)
    {
        try (Stream<Path> files = Files.list(dataset.resolve("_versions"))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".manifest"))
                    .sorted()
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
