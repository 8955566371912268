package io.lancetrino.tests;

import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQL writes, checked through Trino and through the Lance SDK's own scan of the same table.
 */
final class TestLanceWrites
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-writes");
        return LanceQueryRunner.builder(warehouse).withSchema("w").build();
    }

    @Test
    void testCreateInsertDeleteUpdateMerge()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE orders_copy AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders", 15000);
        assertQuery("SELECT count(*), sum(totalprice) FROM orders_copy", "SELECT count(*), sum(totalprice) FROM orders");
        assertUpdate("INSERT INTO orders_copy SELECT orderkey + 1000000, custkey, orderstatus, totalprice, orderdate FROM tpch.tiny.orders WHERE orderkey < 100", "SELECT count(*) FROM orders WHERE orderkey < 100");
        assertQuery("SELECT count(*) FROM orders_copy", "SELECT 15000 + count(*) FROM orders WHERE orderkey < 100");
        // the copies of orders with keys under 100 count too
        assertUpdate("DELETE FROM orders_copy WHERE orderstatus = 'F'", "SELECT count(*) + sum(CASE WHEN orderkey < 100 THEN 1 ELSE 0 END) FROM orders WHERE orderstatus = 'F'");
        assertQuery("SELECT count(*) FROM orders_copy WHERE orderstatus = 'F'", "VALUES 0");
        long afterDelete = (long) computeScalar("SELECT count(*) FROM orders_copy");
        assertUpdate("UPDATE orders_copy SET totalprice = 0 WHERE orderstatus = 'P'", "SELECT count(*) + sum(CASE WHEN orderkey < 100 THEN 1 ELSE 0 END) FROM orders WHERE orderstatus = 'P'");
        assertQuery("SELECT sum(totalprice) FROM orders_copy WHERE orderstatus = 'P'", "VALUES 0.0");
        assertQuery("SELECT count(*) FROM orders_copy", "VALUES " + afterDelete);
        assertUpdate("MERGE INTO orders_copy t USING (SELECT orderkey, totalprice FROM tpch.tiny.orders WHERE orderkey < 1000) s ON t.orderkey = s.orderkey " +
                "WHEN MATCHED THEN UPDATE SET totalprice = -1 WHEN NOT MATCHED THEN INSERT (orderkey, custkey, orderstatus, totalprice, orderdate) VALUES (s.orderkey, 0, 'X', s.totalprice, DATE '2020-01-01')",
                "SELECT count(*) FROM orders WHERE orderkey < 1000");
        assertQuery("SELECT count(*) FROM orders_copy WHERE totalprice = -1", "SELECT count(*) FROM orders WHERE orderkey < 1000 AND orderstatus <> 'F'");
        assertQuery("SELECT count(*) FROM orders_copy WHERE orderstatus = 'X'", "SELECT count(*) FROM orders WHERE orderkey < 1000 AND orderstatus = 'F'");
        assertQuery("SELECT count(*) FROM orders_copy FOR VERSION AS OF 1", "VALUES 15000");

        List<MaterializedRow> trino = computeActual("SELECT orderkey, custkey, orderstatus, totalprice, orderdate FROM orders_copy").getMaterializedRows();
        List<MaterializedRow> sdk = SdkScans.scanRows(warehouse.resolve("w/orders_copy.lance"), org.lance.Ref.ofMain(), List.of());
        assertThat(sdk).containsExactlyInAnyOrderElementsOf(trino);
    }

    @Test
    void testEveryTypeRoundTrips()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        String values = """
                (true, TINYINT '-128', SMALLINT '32767', 2147483647, BIGINT '-9223372036854775808', REAL '1.5', DOUBLE '-2.25',
                 DECIMAL '12345678.90', DECIMAL '-1234567890123456789012345678.0123456789', 'héllo', X'00FF10', DATE '1969-12-31',
                 TIME '23:59:59.123456', TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '2026-11-29 10:00:00.123456789',
                 TIMESTAMP '2026-11-29 10:00:00.123 UTC', TIMESTAMP '1960-01-01 00:00:00.000001 UTC',
                 ARRAY[1, NULL, 3], ARRAY[REAL '0.5', REAL '1.5'], CAST(ROW(1, 'x') AS ROW(a integer, b varchar)),
                 ARRAY[CAST(ROW(BIGINT '7') AS ROW(c bigint)), NULL])""";
        String nulls = "(" + String.join(", ", java.util.Collections.nCopies(21, "NULL")) + ")";
        // 2.2 decodes dictionary strings with bytes left in null slots, which Trino's exchange must never see
        for (String version : List.of("2.1", "2.2")) {
            String table = "all_types_" + version.replace(".", "");
            assertUpdate("CREATE TABLE " + table + " WITH (file_format_version = '" + version + "') AS SELECT * FROM (VALUES " + values + ", " + nulls + ") AS t(c_bool, c_tinyint, c_smallint, c_integer, c_bigint, c_real, c_double, " +
                    "c_short_decimal, c_long_decimal, c_varchar, c_varbinary, c_date, c_time, c_ts6, c_ts9, c_tstz3, c_tstz6, c_array, c_embedding, c_row, c_array_row)", 2);
            assertThat(query("SELECT * FROM " + table)).matches("VALUES " + values + ", " + "(CAST(NULL AS boolean), CAST(NULL AS tinyint), CAST(NULL AS smallint), CAST(NULL AS integer), CAST(NULL AS bigint), " +
                    "CAST(NULL AS real), CAST(NULL AS double), CAST(NULL AS decimal(10,2)), CAST(NULL AS decimal(38,10)), CAST(NULL AS varchar(5)), CAST(NULL AS varbinary), CAST(NULL AS date), " +
                    "CAST(NULL AS time(6)), CAST(NULL AS timestamp(6)), CAST(NULL AS timestamp(9)), CAST(NULL AS timestamp(3) with time zone), CAST(NULL AS timestamp(6) with time zone), " +
                    "CAST(NULL AS array(integer)), CAST(NULL AS array(real)), CAST(NULL AS row(a integer, b varchar)), CAST(NULL AS array(row(c bigint))))");
            // the Lance SDK reads the same values, every column
            assertThat(SdkScans.scanRows(warehouse.resolve("w/" + table + ".lance"), org.lance.Ref.ofMain(), List.of()))
                    .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM " + table).getMaterializedRows());
        }
    }

    @Test
    void testSchemaChangesAndTableProperties()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE evolve (id bigint NOT NULL, name varchar COMMENT 'who') COMMENT 'people' WITH (file_format_version = '2.0', max_rows_per_file = 2)");
        assertUpdate("INSERT INTO evolve VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3);
        assertQuery("SELECT count(*) FROM \"evolve$fragments\"", "VALUES 2");
        assertQuery("SELECT comment FROM information_schema.columns WHERE table_name = 'evolve' AND column_name = 'name'", "VALUES 'who'");
        assertQuery("SELECT comment FROM system.metadata.table_comments WHERE table_name = 'evolve'", "VALUES 'people'");

        assertUpdate("ALTER TABLE evolve ADD COLUMN score double");
        assertUpdate("INSERT INTO evolve VALUES (4, 'd', 0.5)", 1);
        assertQuery("SELECT id, name, score FROM evolve", "VALUES (1, 'a', NULL), (2, 'b', NULL), (3, 'c', NULL), (4, 'd', 0.5)");
        assertUpdate("ALTER TABLE evolve RENAME COLUMN name TO label");
        assertQuery("SELECT label FROM evolve WHERE id = 1", "VALUES 'a'");
        assertUpdate("ALTER TABLE evolve DROP COLUMN score");
        assertUpdate("ALTER TABLE evolve ADD COLUMN score double");
        // a new column never reads the data of a dropped one
        assertQuery("SELECT count(score) FROM evolve", "VALUES 0");
        assertUpdate("COMMENT ON COLUMN evolve.label IS 'label'");
        assertUpdate("COMMENT ON TABLE evolve IS 'renamed'");
        assertQuery("SELECT comment FROM information_schema.columns WHERE table_name = 'evolve' AND column_name = 'label'", "VALUES 'label'");
        assertQuery("SELECT comment FROM system.metadata.table_comments WHERE table_name = 'evolve'", "VALUES 'renamed'");
        // every version is still readable with its own schema
        assertQuery("SELECT id, name FROM evolve FOR VERSION AS OF 2", "VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        // the Lance SDK reads the evolved schema the same way, and keeps appending to it
        assertThat(SdkScans.scanRows(warehouse.resolve("w/evolve.lance"), org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM evolve").getMaterializedRows());

        assertUpdate("TRUNCATE TABLE evolve");
        assertQuery("SELECT count(*) FROM evolve", "VALUES 0");
        // versions: 1 create, 2 insert, 3 add, 4 insert, 5 rename, 6 drop, 7 add, 8 and 9 comments, 10 truncate
        assertQuery("SELECT count(*) FROM evolve FOR VERSION AS OF 9", "VALUES 4");
        assertUpdate("ALTER TABLE evolve RENAME TO evolved");
        assertQuery("SELECT count(*) FROM evolved FOR VERSION AS OF 9", "VALUES 4");
        assertUpdate("CREATE OR REPLACE TABLE evolved AS SELECT 42 AS answer", 1);
        assertQuery("SELECT * FROM evolved", "VALUES 42");
        // replacing keeps the history, as Iceberg's CREATE OR REPLACE does
        assertQuery("SELECT version, operation FROM \"evolved$versions\" WHERE version >= 10", "VALUES (10, 'delete'), (11, 'overwrite')");
        assertUpdate("DROP TABLE evolved");
        assertQueryReturnsEmptyResult("SHOW TABLES LIKE 'evolved'");
    }

    @Test
    void testCompressionIsPartOfTheSchemaForEveryWriter()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE packed WITH (compression = 'zstd', file_format_version = '2.2') AS SELECT orderkey, comment FROM tpch.tiny.orders", 15000);
        assertUpdate("ALTER TABLE packed ADD COLUMN note varchar");
        assertUpdate("INSERT INTO packed SELECT orderkey, comment, 'added' FROM tpch.tiny.orders WHERE orderkey < 100", 27);
        Path table = warehouse.resolve("w/packed.lance");
        try (var allocator = LanceFixtures.newAllocator();
                var dataset = LanceFixtures.open(allocator, table)) {
            // Lance writers read the compression from each field's metadata, so it also applies to columns added later
            assertThat(dataset.getSchema().getFields())
                    .allSatisfy(field -> assertThat(field.getMetadata()).containsEntry("lance-encoding:compression", "zstd"));
            // and so do the chunk size that makes zstd work on strings, and the dictionary threshold
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> !field.getName().equals("orderkey"))
                    .extracting(field -> field.getName())
                    .containsExactly("comment", "note");
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> !field.getName().equals("orderkey"))
                    .allSatisfy(field -> assertThat(field.getMetadata())
                            .containsEntry("lance-encoding:minichunk-size", "65536")
                            .containsEntry("lance-encoding:dict-size-ratio", "0.9"));
        }
        var manifest = newestManifest(table);
        assertThat(manifest.getDataFormat().getVersion()).isEqualTo("2.2");
        assertThat(manifest.getFragmentsList()).allSatisfy(fragment -> assertThat(fragment.getFilesList())
                .allSatisfy(file -> assertThat(file.getFileMinorVersion()).isEqualTo(2)));
        assertThat(SdkScans.scanRows(table, org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM packed").getMaterializedRows());
        assertQuery("SELECT count(*), count(note) FROM packed WHERE orderkey < 100", "VALUES (54, 27)");
    }

    @Test
    void testDefaultEncodingsKeepFilesSmall()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE flags AS SELECT returnflag, linestatus FROM tpch.tiny.lineitem", 60175);
        Path flags = warehouse.resolve("w/flags.lance");
        // one-character strings stored plain take 5 bytes a row (10 for both columns); as a dictionary, a few bits
        assertThat(dataBytes(flags)).isLessThan(60175 * 2);
        assertThat(newestManifest(flags).getDataFormat().getVersion()).isEqualTo("2.2");
        assertThat(SdkScans.scanRows(flags, org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM flags").getMaterializedRows());

        assertUpdate("CREATE TABLE notes WITH (compression = 'none') AS SELECT comment FROM tpch.tiny.lineitem", 60175);
        assertUpdate("CREATE TABLE notes_auto AS SELECT comment FROM tpch.tiny.lineitem", 60175);
        // the default compresses strings with zstd over 64 KiB chunks: about 23% smaller (over Lance's default few-KiB
        // chunks zstd saves about 4%)
        assertThat(dataBytes(warehouse.resolve("w/notes_auto.lance"))).isLessThan(dataBytes(warehouse.resolve("w/notes.lance")) * 85 / 100);
        assertQuery("SELECT count(DISTINCT comment), max(comment) FROM notes_auto", "SELECT count(DISTINCT comment), max(comment) FROM lineitem");
    }

    @Test
    void testStringCompressionLevel()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        // from level 14 on zstd parses the text optimally too, in chunks of up to 256 KiB: about a tenth smaller (the
        // offsets before each chunk's text are a frame of their own at level 14 at any string level)
        assertUpdate("CREATE TABLE notes_archive WITH (string_compression_level = 15) AS SELECT orderkey, comment FROM tpch.tiny.lineitem", 60175);
        assertUpdate("CREATE TABLE notes_default AS SELECT orderkey, comment FROM tpch.tiny.lineitem", 60175);
        assertThat(dataBytes(warehouse.resolve("w/notes_archive.lance"))).isLessThan(dataBytes(warehouse.resolve("w/notes_default.lance")) * 95 / 100);
        assertUpdate("ALTER TABLE notes_archive ADD COLUMN note varchar");
        Path table = warehouse.resolve("w/notes_archive.lance");
        try (var allocator = LanceFixtures.newAllocator();
                var dataset = LanceFixtures.open(allocator, table)) {
            // a Lance key on the string fields, so every Lance writer applies it, also to columns added later
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> !field.getName().equals("orderkey"))
                    .extracting(field -> field.getName())
                    .containsExactly("comment", "note");
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> !field.getName().equals("orderkey"))
                    .allSatisfy(field -> assertThat(field.getMetadata()).containsEntry("lance-encoding:compression-level", "15"));
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> field.getName().equals("orderkey"))
                    .allSatisfy(field -> assertThat(field.getMetadata()).doesNotContainKey("lance-encoding:compression-level"));
        }
        assertThat((String) computeScalar("SHOW CREATE TABLE notes_archive")).contains("string_compression_level = 15");
        assertThat(SdkScans.scanRows(table, org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM notes_archive").getMaterializedRows());
        assertQuery("SELECT count(*), max(comment), count(DISTINCT comment) FROM notes_archive", "SELECT count(*), max(comment), count(DISTINCT comment) FROM lineitem");

        assertQueryFails("CREATE TABLE bad_level (s varchar) WITH (string_compression_level = 23)", "string_compression_level must be a zstd level from 1 to 22, not 23");
        assertQueryFails("CREATE TABLE bad_level (s varchar) WITH (compression = 'lz4', string_compression_level = 5)", "string_compression_level needs compression 'auto' or 'zstd', not 'lz4'");
    }

    @Test
    void testDefaultCompressionLeavesFloatingPointAlone()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE mixed AS SELECT orderkey, comment, totalprice, orderdate FROM tpch.tiny.orders", 15000);
        assertUpdate("ALTER TABLE mixed ADD COLUMN note varchar");
        assertUpdate("ALTER TABLE mixed ADD COLUMN amount bigint");
        assertUpdate("ALTER TABLE mixed ADD COLUMN ratio real");
        assertUpdate("INSERT INTO mixed SELECT orderkey, comment, totalprice, orderdate, 'added', 7, 0.5 FROM tpch.tiny.orders WHERE orderkey < 100", 27);
        Path table = warehouse.resolve("w/mixed.lance");
        try (var allocator = LanceFixtures.newAllocator();
                var dataset = LanceFixtures.open(allocator, table)) {
            // Lance keeps zstd only for chunks it shrinks; byte planes (bss) would make integers larger
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> List.of("orderkey", "comment", "orderdate", "note", "amount").contains(field.getName()))
                    .hasSize(5)
                    .allSatisfy(field -> assertThat(field.getMetadata())
                            .containsEntry("lance-encoding:compression", "zstd")
                            .containsEntry("lance-encoding:bss", "off"));
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> List.of("comment", "note").contains(field.getName()))
                    .allSatisfy(field -> assertThat(field.getMetadata()).containsEntry("lance-encoding:minichunk-size", "65536"));
            // zstd over 1,024 doubles at a time decodes several times slower than Lance's own encodings
            assertThat(dataset.getSchema().getFields()).filteredOn(field -> List.of("totalprice", "ratio").contains(field.getName()))
                    .hasSize(2)
                    .allSatisfy(field -> assertThat(field.getMetadata()).doesNotContainKey("lance-encoding:compression"));
        }
        assertThat(SdkScans.scanRows(table, org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM mixed").getMaterializedRows());
        assertQuery("SELECT count(*), count(note), sum(amount), sum(ratio) FROM mixed", "VALUES (15027, 27, 189, 13.5)");

        // format 2.1 keeps strings in chunks of a few KiB, where zstd would only slow reads down
        assertUpdate("CREATE TABLE mixed21 WITH (file_format_version = '2.1') AS SELECT orderkey, comment FROM tpch.tiny.orders", 15000);
        try (var allocator = LanceFixtures.newAllocator();
                var dataset = LanceFixtures.open(allocator, warehouse.resolve("w/mixed21.lance"))) {
            assertThat(dataset.getSchema().getFields()).allSatisfy(field -> assertThat(field.getMetadata()).doesNotContainKey("lance-encoding:compression"));
        }
        assertThat((String) computeScalar("SHOW CREATE TABLE mixed21")).contains("compression = 'auto'");
    }

    private static long dataBytes(Path table)
            throws java.io.IOException
    {
        try (var files = Files.list(table.resolve("data"))) {
            long bytes = 0;
            for (Path file : files.toList()) {
                bytes += Files.size(file);
            }
            return bytes;
        }
    }

    private static io.lancetrino.metadata.proto.Manifest newestManifest(Path table)
            throws java.io.IOException
    {
        try (var manifests = Files.list(table.resolve("_versions"))) {
            // V2 names sort newest first
            Path newest = manifests.filter(file -> file.toString().endsWith(".manifest")).sorted().findFirst().orElseThrow();
            return io.lancetrino.metadata.ManifestFile.parse(newest.toString(), Files.readAllBytes(newest)).manifest();
        }
    }

    @Test
    void testBadInputLeavesTheTableUnchanged()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE strict (id bigint NOT NULL, amount decimal(5,2), code varchar(3))");
        assertUpdate("INSERT INTO strict VALUES (1, 1.25, 'abc')", 1);
        assertQueryFails("INSERT INTO strict VALUES (NULL, 1, 'x')", "NULL value not allowed for NOT NULL column: id");
        assertQueryFails("INSERT INTO strict VALUES (2, 12345.678, 'x')", ".*(Cannot cast|out of range|exceeds).*");
        assertQueryFails("INSERT INTO strict VALUES (2, 1, 'abcd')", ".*Cannot truncate non-space characters.*");
        assertQueryFails("CREATE TABLE bad_type (m map(varchar, bigint))", "Table w.bad_type: column m has type map\\(varchar, bigint\\), which Lance tables cannot store");
        assertQueryFails("CREATE TABLE bad_format (id bigint) WITH (file_format_version = '0.1')", "file_format_version must be one of \\[2.0, 2.1, 2.2\\], not '0.1'");
        assertQueryFails("CREATE TABLE bad_compression (id bigint) WITH (compression = 'gzip')", "compression must be one of \\[auto, lz4, none, zstd\\], not 'gzip'");
        // a query that fails after workers wrote files commits nothing
        assertQueryFails("INSERT INTO strict SELECT orderkey, 1, 'x' FROM tpch.tiny.orders WHERE 1 / (orderkey - 60000) > -1", "Division by zero");
        assertQuery("SELECT id, amount, code FROM strict", "VALUES (1, 1.25, 'abc')");
        assertQuery("SELECT count(*) FROM \"strict$versions\"", "VALUES 2");
    }

    @Test
    void testSdkContinuesOnConnectorTables()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        assertUpdate("CREATE TABLE shared AS SELECT nationkey AS id, name FROM tpch.tiny.nation", 25);
        assertUpdate("DELETE FROM shared WHERE id < 5", 5);
        String uri = warehouse.resolve("w/shared.lance").toString();
        try (org.apache.arrow.memory.BufferAllocator allocator = io.lancetrino.metadata.ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                org.lance.Dataset dataset = org.lance.Dataset.open(uri, allocator)) {
            assertThat(dataset.countRows()).isEqualTo(20);
            dataset.delete("id >= 20");
        }
        assertQuery("SELECT count(*), min(id), max(id) FROM shared", "VALUES (15, 5, 19)");
        assertUpdate("INSERT INTO shared VALUES (100, 'NEW')", 1);
        assertUpdate("DELETE FROM shared WHERE id = 5", 1);
        assertThat(SdkScans.scanRows(warehouse.resolve("w/shared.lance"), org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM shared").getMaterializedRows());

        // the SDK appends to what the connector wrote (in the table's format version: the SDK 7.0 writes 2.1 files
        // unless told otherwise), and the connector reads it
        try (org.apache.arrow.memory.BufferAllocator allocator = io.lancetrino.metadata.ArrowAllocators.newRootAllocator(Long.MAX_VALUE);
                org.lance.Dataset dataset = org.lance.Dataset.open(uri, allocator);
                org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(dataset.getSchema(), allocator)) {
            ((org.apache.arrow.vector.BigIntVector) root.getVector("id")).setSafe(0, 200);
            ((org.apache.arrow.vector.VarCharVector) root.getVector("name")).setSafe(0, "SDK".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            root.setRowCount(1);
            new org.lance.FragmentOperation.Append(org.lance.Fragment.create(uri, allocator, root, new org.lance.WriteParams.Builder().withDataStorageVersion("2.2").build()))
                    .commit(allocator, uri, Optional.of(dataset.version()), java.util.Map.of()).close();
        }
        assertQuery("SELECT name FROM shared WHERE id = 200", "VALUES 'SDK'");
        assertUpdate("UPDATE shared SET name = 'BOTH' WHERE id = 200", 1);
        assertThat(SdkScans.scanRows(warehouse.resolve("w/shared.lance"), org.lance.Ref.ofMain(), List.of()))
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM shared").getMaterializedRows());
    }

    @Test
    void testExistingTablesKeepTheirManifestNaming()
            throws Exception
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS w");
        io.lancetrino.tests.fixtures.LanceFixtures.v1Naming(warehouse.resolve("w"), "old_naming");
        assertUpdate("INSERT INTO old_naming SELECT max(id) + 1, 'more' FROM old_naming", 1);
        assertThat(warehouse.resolve("w/old_naming.lance/_versions/3.manifest")).exists();
        assertUpdate("CREATE TABLE new_naming (id bigint)");
        assertThat(warehouse.resolve("w/new_naming.lance/_versions/18446744073709551614.manifest")).exists();
    }
}
