package io.lancetrino.tests;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.metadata.proto.FileDescriptor;
import io.lancetrino.plugin.write.JavaDataFileWriter;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.Session;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentOperation;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static io.lancetrino.split.LanceErrorCode.LANCE_BAD_DATA;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data files written by the Java writer (the default for tables of flat columns, rows, arrays and vectors): the Lance SDK
 * opens, scans and appends to them, for the TPC-H tables and after branch writes, clones, merges and optimize, and
 * indexes their vectors; and the SDK's writer and the Java writer, given the same rows, make tables both readers read
 * alike.
 */
final class TestLanceJavaWriter
        extends AbstractTestQueryFramework
{
    private static final List<String> TPCH_TABLES = List.of("lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region");

    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-java-writer");
        return LanceQueryRunner.builder(warehouse).withSchema("jw").build();
    }

    @Test
    void testSdkReadsAndAppendsToTpchTables()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        for (String table : TPCH_TABLES) {
            long rows = (long) computeScalar("SELECT count(*) FROM tpch.tiny." + table);
            assertUpdate("CREATE TABLE %s AS SELECT * FROM tpch.tiny.%s".formatted(table, table), rows);
            Path dataset = dataset(table);
            assertThat(writers(dataset)).as(table).containsOnly(JavaDataFileWriter.WRITER_VALUE);
            List<MaterializedRow> written = computeActual("SELECT * FROM " + table).getMaterializedRows();
            assertSameRows(table + " read by Trino", written, computeActual("SELECT * FROM tpch.tiny." + table).getMaterializedRows());
            assertSameRows(table + " read by the SDK", SdkScans.scanRows(dataset, Ref.ofMain(), List.of()), written);

            long appended = sdkAppendsItsFirstBatch(dataset);
            assertQuery("SELECT count(*) FROM " + table, "VALUES " + (rows + appended));
            assertUpdate("INSERT INTO %s SELECT * FROM tpch.tiny.%s".formatted(table, table), rows);
            assertSameRows(table + " read by the SDK after appends", SdkScans.scanRows(dataset, Ref.ofMain(), List.of()), computeActual("SELECT * FROM " + table).getMaterializedRows());
        }
    }

    @Test
    void testSdkReadsBranchesClonesMergesAndOptimize()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        assertUpdate("CREATE TABLE flow AS SELECT orderkey, custkey, orderstatus, totalprice, orderdate, CASE WHEN orderkey % 7 = 0 THEN NULL ELSE comment END AS comment FROM tpch.tiny.orders", 15000);
        assertUpdate("CREATE BRANCH dev IN TABLE flow");
        assertUpdate("INSERT INTO flow @ dev SELECT orderkey + 1000000, custkey, 'D', totalprice, orderdate, NULL FROM tpch.tiny.orders WHERE orderkey < 3000", "SELECT count(*) FROM orders WHERE orderkey < 3000");
        assertUpdate("UPDATE flow @ dev SET totalprice = totalprice * 2 WHERE orderstatus = 'P'", "SELECT count(*) FROM orders WHERE orderstatus = 'P'");
        assertUpdate("CALL lance.system.shallow_clone('jw', 'flow', 'jw', 'flow_copy')");
        assertUpdate("INSERT INTO flow_copy VALUES (-1, -1, 'C', 1.5, DATE '2026-12-05', 'clone')", 1);
        computeActual("ALTER TABLE flow EXECUTE merge_branch(source => 'dev')");
        for (int insert = 0; insert < 3; insert++) {
            assertUpdate("INSERT INTO flow VALUES (%s, 1, 'S', 0.25, DATE '2026-01-01', 'small')".formatted(-10 - insert), 1);
        }
        computeActual("ALTER TABLE flow EXECUTE optimize");

        Path flow = dataset("flow");
        Path copy = dataset("flow_copy");
        // every file written since the table was created: main, the branch, the clone, the merge and optimize
        assertThat(writers(flow)).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        assertThat(writers(copy)).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        assertSameRows("main", SdkScans.scanRows(flow, Ref.ofMain(), List.of()), computeActual("SELECT * FROM flow").getMaterializedRows());
        assertSameRows("branch dev", SdkScans.scanRows(flow, Ref.ofBranch("dev"), List.of()), computeActual("SELECT * FROM flow FOR VERSION AS OF 'dev'").getMaterializedRows());
        assertSameRows("clone", SdkScans.scanRows(copy, Ref.ofMain(), List.of()), computeActual("SELECT * FROM flow_copy").getMaterializedRows());
        long rows = (long) computeScalar("SELECT count(*) FROM flow");
        long appended = sdkAppendsItsFirstBatch(flow);
        assertQuery("SELECT count(*) FROM flow", "VALUES " + (rows + appended));
    }

    @Test
    void testBothWritersMakeTablesBothReadersReadAlike()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        String rows = """
                SELECT orderkey, partkey, linenumber, CAST(linenumber AS tinyint) AS tiny, CAST(linenumber * 1000 AS smallint) AS small,
                       quantity, CAST(discount AS real) AS discount, extendedprice, shipdate, returnflag = 'R' AS returned,
                       CAST(extendedprice AS decimal(12, 2)) AS price, CAST(extendedprice * orderkey AS decimal(38, 10)) AS amount,
                       CASE WHEN orderkey % 5 = 0 THEN NULL ELSE comment END AS comment, CAST(shipmode AS varbinary) AS mode,
                       CAST(shipdate AS timestamp(6)) + (orderkey % 1000) * INTERVAL '0.001' SECOND AS shipped,
                       CAST(shipdate AS timestamp(3)) + (orderkey % 1000) * INTERVAL '0.001' SECOND AS shipped_ms,
                       with_timezone(CAST(shipdate AS timestamp(0)), 'UTC') AS shipped_zoned,
                       CAST(TIME '00:00:00' + (orderkey % 86400) * INTERVAL '1' SECOND AS time(6)) AS at_time
                FROM tpch.tiny.lineitem""";
        writeWithBothWriters("by", (long) computeScalar("SELECT count(*) FROM tpch.tiny.lineitem"), "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("by", expected);
        assertSameRows("written by sdk, read by the SDK's scan", SdkScans.scanRows(dataset("by_sdk"), Ref.ofMain(), List.of()), expected);
    }

    @Test
    void testUncompressedTablesTakeRunLengthsAndFsst()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // without general compression: sorted buckets in runs (run-length chunks) and text (FSST), as Lance's writer codes them
        String rows = "SELECT orderkey / 100 AS bucket, CASE WHEN orderkey % 9 = 0 THEN NULL ELSE comment END AS comment, linenumber FROM tpch.tiny.lineitem";
        writeWithBothWriters("plain", 60175, "CREATE TABLE {table} WITH (compression = 'none') AS " + rows + " ORDER BY orderkey");
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("plain", expected);
        List<String> encodings = dataFiles(dataset("plain_java")).stream()
                .flatMap(file -> fileMetadata(file).columns().subList(0, 2).stream())
                .flatMap(column -> column.pages().stream())
                .filter(page -> page.layout().hasMiniBlockLayout())
                .map(page -> page.layout().getMiniBlockLayout().getValueCompression().getCompressionCase().name())
                .toList();
        assertThat(encodings).contains("RLE", "FSST");
        long appended = sdkAppendsItsFirstBatch(dataset("plain_java"));
        assertQuery("SELECT count(*) FROM plain_java", "VALUES " + (60175 + appended));
    }

    @Test
    void testStructTablesBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // rows of flat fields, a row inside a row, NULL rows, NULL inner rows and NULL fields
        String rows = """
                SELECT orderkey AS id,
                       CAST(ROW(custkey, orderstatus, totalprice, orderdate) AS ROW(cust bigint, status varchar, price decimal(12, 2), day date)) AS info,
                       CASE WHEN orderkey % 5 = 0 THEN NULL ELSE CAST(ROW(
                           CASE WHEN orderkey % 7 = 0 THEN NULL ELSE orderpriority END,
                           CASE WHEN orderkey % 3 = 0 THEN NULL ELSE ROW(clerk, shippriority) END,
                           comment) AS ROW(priority varchar, who ROW(clerk varchar, ship integer), note varchar)) END AS extra
                FROM tpch.tiny.orders""";
        writeWithBothWriters("structs", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("structs", expected);
        assertQuery("SELECT count(*) FROM structs_java WHERE extra.who IS NULL AND extra IS NOT NULL", "SELECT count(*) FROM orders WHERE orderkey % 5 <> 0 AND orderkey % 3 = 0");
        long appended = sdkAppendsItsFirstBatch(dataset("structs_java"));
        assertQuery("SELECT count(*) FROM structs_java", "VALUES " + (15000 + appended));
    }

    @Test
    void testFineTimestampsBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // Trino's long timestamps: nanoseconds without zone, micro- and nanoseconds with one, before and after 1970 (in
        // UTC, as the zone is not stored)
        String rows = """
                SELECT orderkey AS id,
                       CASE WHEN orderkey % 7 = 0 THEN NULL ELSE CAST(from_unixtime_nanos(orderkey * 123456789123 - 2000000000000000000) AS timestamp(9)) END AS t9,
                       CAST(from_unixtime_nanos(orderkey * 271828182845 - 999) AS timestamp(7)) AS t7,
                       CAST(from_unixtime_nanos(orderkey * 987654321 - 5000000000000) AS timestamp(6) with time zone) AT TIME ZONE 'UTC' AS tz6,
                       CASE WHEN orderkey % 5 = 0 THEN NULL ELSE from_unixtime_nanos(orderkey * 3141592653 - 17) AT TIME ZONE 'UTC' END AS tz9
                FROM tpch.tiny.orders""";
        writeWithBothWriters("fine_times", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("fine_times", expected);
        long appended = sdkAppendsItsFirstBatch(dataset("fine_times_java"));
        assertQuery("SELECT count(*) FROM fine_times_java", "VALUES " + (15000 + appended));

        // past 2262 nanoseconds overflow 64 bits: refused before anything is committed
        long version = (long) computeScalar("SELECT max(version) FROM \"fine_times_java$versions\"");
        assertQueryFails("INSERT INTO fine_times_java (id, t9) VALUES (-1, TIMESTAMP '3000-01-01 00:00:00.123456789')",
                "Cannot write Lance data file .*: A timestamp\\(9\\) value is out of the range of the unit Lance stores it in \\(nanoseconds reach 2262-04-11, microseconds year 294247\\): .* overflows 64 bits");
        assertQuery("SELECT max(version) FROM \"fine_times_java$versions\"", "VALUES " + version);
    }

    @Test
    void testJsonTablesBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // objects, arrays, JSON null and SQL NULL, long documents now and then
        String rows = """
                SELECT orderkey AS id,
                       CASE orderkey % 5
                           WHEN 0 THEN CAST(ARRAY[orderkey, NULL, custkey] AS json)
                           WHEN 1 THEN json_parse('null')
                           WHEN 2 THEN NULL
                           WHEN 3 THEN CAST(CAST(ROW(custkey, comment, totalprice, orderdate) AS ROW(k bigint, c varchar, p double, d date)) AS json)
                           ELSE CAST(repeat(comment, CAST(orderkey % 97 AS integer)) AS json) END AS doc
                FROM tpch.tiny.orders""";
        writeWithBothWriters("docs", 15000, "CREATE TABLE {table} AS " + rows);
        // read back in json_parse's form (keys sorted)
        List<MaterializedRow> expected = computeActual("SELECT id, json_parse(json_format(doc)) FROM (%s)".formatted(rows)).getMaterializedRows();
        assertJsonTablesReadAlike("docs", expected);
    }

    @Test
    void testNestedJsonBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // json inside rows and arrays: JSONB leaves with 64-bit offsets among other leaves; NULL rows, arrays and values
        String rows = """
                SELECT orderkey AS id,
                       CASE WHEN orderkey % 5 = 0 THEN NULL ELSE CAST(ROW(
                           CASE WHEN orderkey % 3 = 0 THEN NULL ELSE json_parse('{"a": ' || CAST(custkey AS varchar) || ', "b": "' || orderstatus || '"}') END, orderkey)
                           AS ROW(d json, k bigint)) END AS wrapped,
                       CASE WHEN orderkey % 7 = 0 THEN NULL
                           ELSE ARRAY[json_parse('[' || CAST(orderkey AS varchar) || ', null]'), NULL, json_parse('"' || clerk || '"')] END AS docs
                FROM tpch.tiny.orders""";
        writeWithBothWriters("nested_docs", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertJsonTablesReadAlike("nested_docs", expected);
    }

    /**
     * Both readers read the json tables of both writers as {@code expected}; the SDK's scan sees the same JSONB bytes
     * in both (its JSONB is compared, not json text); the SDK appends to the Java writer's table.
     */
    private void assertJsonTablesReadAlike(String table, List<MaterializedRow> expected)
    {
        for (String reader : List.of("java", "sdk")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", reader).build();
            for (String writer : List.of("java", "sdk")) {
                assertSameRows("%s written by %s, read by %s".formatted(table, writer, reader), computeActual(session, "SELECT * FROM %s_%s".formatted(table, writer)).getMaterializedRows(), expected);
            }
        }
        assertSameRows(table + " written by java, read by the SDK's scan", SdkScans.scanRows(dataset(table + "_java"), Ref.ofMain(), List.of()),
                SdkScans.scanRows(dataset(table + "_sdk"), Ref.ofMain(), List.of()));
        long appended = sdkAppendsItsFirstBatch(dataset(table + "_java"));
        assertQuery("SELECT count(*) FROM %s_java".formatted(table), "VALUES " + (expected.size() + appended));
    }

    @Test
    void testArrayTablesBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // NULL and empty arrays, NULL elements, and arrays of 3,000 elements that span chunks
        String rows = """
                SELECT orderkey AS id,
                       CASE WHEN orderkey % 11 = 0 THEN NULL WHEN orderkey % 13 = 0 THEN ARRAY[] ELSE split(comment, ' ') END AS words,
                       transform(sequence(1, orderkey % 5 + 1), i -> CASE WHEN i = 3 THEN NULL ELSE orderkey * i END) AS multiples,
                       ARRAY[totalprice, totalprice / 2] AS prices,
                       CASE WHEN orderkey % 100 = 7 THEN repeat(custkey, 3000) ELSE ARRAY[custkey] END AS customers
                FROM tpch.tiny.orders""";
        writeWithBothWriters("arrays", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("arrays", expected);
        // rewrites go through the Java writer too
        assertUpdate("UPDATE arrays_java SET words = ARRAY['updated', NULL] WHERE id % 3 = 0", "SELECT count(*) FROM orders WHERE orderkey % 3 = 0");
        assertUpdate("DELETE FROM arrays_java WHERE id % 4 = 0", "SELECT count(*) FROM orders WHERE orderkey % 4 = 0");
        assertThat(writers(dataset("arrays_java"))).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        assertSameRows("arrays after UPDATE and DELETE, read by the SDK's scan", SdkScans.scanRows(dataset("arrays_java"), Ref.ofMain(), List.of()),
                computeActual("SELECT * FROM arrays_java").getMaterializedRows());
        long rowsNow = (long) computeScalar("SELECT count(*) FROM arrays_java");
        long appended = sdkAppendsItsFirstBatch(dataset("arrays_java"));
        assertQuery("SELECT count(*) FROM arrays_java", "VALUES " + (rowsNow + appended));
    }

    @Test
    void testNestedArrayTablesBothWritersBothReaders()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // arrays of rows (with NULL rows among them), arrays of arrays (NULL and empty inner arrays), rows holding arrays
        // (NULL rows, NULL arrays), and an array of rows holding arrays
        String rows = """
                SELECT o.orderkey AS id, l.items,
                       transform(split(o.comment, ' '), w -> CASE WHEN length(w) < 3 THEN NULL WHEN length(w) = 3 THEN ARRAY[] ELSE split(w, 'e') END) AS word_parts,
                       CASE WHEN o.orderkey % 5 = 0 THEN NULL ELSE CAST(ROW(o.custkey, CASE WHEN o.orderkey % 3 = 0 THEN NULL ELSE split(o.orderpriority, '-') END)
                           AS ROW(cust bigint, tags array(varchar))) END AS info,
                       transform(sequence(1, o.orderkey % 4), i -> CASE WHEN i = 2 THEN NULL
                           ELSE CAST(ROW(i, repeat(o.totalprice / i, i)) AS ROW(i integer, parts array(double))) END) AS shares
                FROM tpch.tiny.orders o
                JOIN (SELECT orderkey, array_agg(CAST(ROW(linenumber, quantity, shipmode) AS ROW(n integer, q double, mode varchar)) ORDER BY linenumber) AS items
                      FROM tpch.tiny.lineitem GROUP BY orderkey) l ON l.orderkey = o.orderkey""";
        writeWithBothWriters("nested", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("nested", expected);
        assertQuery("SELECT sum(cardinality(items)) FROM nested_java", "SELECT count(*) FROM lineitem");
        assertUpdate("UPDATE nested_java SET shares = NULL, items = ARRAY[NULL] WHERE id % 3 = 0", "SELECT count(*) FROM orders WHERE orderkey % 3 = 0");
        assertThat(writers(dataset("nested_java"))).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        assertSameRows("nested arrays after UPDATE, read by the SDK's scan", SdkScans.scanRows(dataset("nested_java"), Ref.ofMain(), List.of()),
                computeActual("SELECT * FROM nested_java").getMaterializedRows());
        long appended = sdkAppendsItsFirstBatch(dataset("nested_java"));
        assertQuery("SELECT count(*) FROM nested_java", "VALUES " + (15000 + appended));
    }

    @Test
    void testConstantAndAllNullColumnsAreConstantPages()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        String rows = """
                SELECT orderkey AS id, BIGINT '42' AS answer, DOUBLE '-0.5' AS half, true AS flag, DATE '2026-12-05' AS day,
                       CAST(NULL AS varchar) AS nothing, CAST(NULL AS decimal(12, 2)) AS no_price, CAST(NULL AS integer) AS no_number,
                       'source-system-a' AS source, JSON '{"v": 2}' AS doc
                FROM tpch.tiny.orders""";
        writeWithBothWriters("constants", 15000, "CREATE TABLE {table} AS " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("constants", expected);
        // every page of the nine columns is a constant page: no buffers at all, or (strings, json) one holding the value
        List<Path> files = dataFiles(dataset("constants_java"));
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            LanceFileMetadata metadata = fileMetadata(file);
            for (int column = 1; column < 10; column++) {
                int buffers = column < 8 ? 0 : 1;
                assertThat(metadata.columns().get(column).pages()).as("column %s of %s", column, file)
                        .allMatch(page -> page.layout().hasConstantLayout() && page.bufferSizes().size() == buffers);
            }
        }
        assertQuery("SELECT count(*) FROM constants_java WHERE answer = 42 AND half < 0 AND flag AND day = DATE '2026-12-05' AND nothing IS NULL AND no_price IS NULL AND no_number IS NULL AND source = 'source-system-a' AND json_extract_scalar(doc, '$.v') = '2'",
                "VALUES 15000");
        long appended = sdkAppendsItsFirstBatch(dataset("constants_java"));
        assertQuery("SELECT count(*), count(DISTINCT answer) FROM constants_java", "VALUES (%s, 1)".formatted(15000 + appended));
    }

    @Test
    void testFormat21TablesWithLongValues()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // values of 256 bytes and more go in full-zip pages in format 2.1, values past its 32 KiB chunks too; under
        // arrays too (a record per level), except where rows lie between arrays; json as large binaries, u64 lengths
        String rows = """
                SELECT orderkey, comment,
                       CASE WHEN orderkey % 100 = 1 THEN rpad(comment, 40000, 'x') WHEN orderkey % 10 = 3 THEN rpad(comment, 300, 'y') WHEN orderkey % 7 = 0 THEN NULL ELSE comment END AS text,
                       CAST(ROW(custkey, CASE WHEN orderkey % 9 = 0 THEN rpad(clerk, 500, 'z') ELSE clerk END) AS ROW(cust bigint, clerk varchar)) AS who,
                       CASE WHEN orderkey % 5 = 0 THEN NULL WHEN orderkey % 5 = 1 THEN ARRAY[] ELSE transform(split(comment, ' '), w -> CASE WHEN orderkey % 40 = 2 THEN rpad(w, 700, 'w') WHEN length(w) = 2 THEN NULL ELSE w END) END AS words,
                       CASE WHEN orderkey % 6 = 0 THEN NULL ELSE ARRAY[CAST(ROW(split(orderpriority, '-'), totalprice) AS ROW(parts array(varchar), price decimal(12,2))),
                            CAST(ROW(CASE WHEN orderkey % 50 = 3 THEN ARRAY[rpad(comment, 600, 'p')] WHEN orderkey % 4 = 0 THEN NULL ELSE ARRAY[] END, NULL) AS ROW(parts array(varchar), price decimal(12,2)))] END AS notes,
                       CASE WHEN orderkey % 8 = 0 THEN NULL ELSE json_object('key': orderkey, 'comment': CASE WHEN orderkey % 30 = 1 THEN rpad(comment, 2000, 'j') ELSE comment END) END AS doc
                FROM tpch.tiny.orders""";
        assertUpdate("CREATE TABLE v21 WITH (file_format_version = '2.1') AS " + rows, 15000);
        assertThat(writers(dataset("v21"))).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        for (String reader : List.of("java", "sdk")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", reader).build();
            assertSameRows("format 2.1 read by " + reader, computeActual(session, "SELECT * FROM v21").getMaterializedRows(), expected);
        }
        assertSameRows("format 2.1 read by the SDK's scan", SdkScans.scanRows(dataset("v21"), Ref.ofMain(), List.of()), expected);
        assertQuery("SELECT count(*) FROM v21 WHERE length(text) = 40000", "SELECT count(*) FROM orders WHERE orderkey % 100 = 1");
        assertThat(dataFiles(dataset("v21")).stream().map(file -> fileMetadata(file).columns().get(5).pages().getFirst().layout().getLayoutCase().name()))
                .as("the words' pages: full-zip where a long word is")
                .contains("FULL_ZIP_LAYOUT");
        long appended = sdkAppendsItsFirstBatch(dataset("v21"), "2.1");
        assertQuery("SELECT count(*) FROM v21", "VALUES " + (15000 + appended));

        // a row with more empty arrays between two elements than a 2.1 chunk holds with their levels: refused, nothing committed
        assertUpdate("CREATE TABLE crowded21 (a array(array(bigint))) WITH (file_format_version = '2.1')");
        assertThat(query("INSERT INTO crowded21 SELECT ARRAY[ARRAY[BIGINT '1']] || transform(sequence(1, 9000), i -> CAST(ARRAY[] AS array(bigint))) || ARRAY[ARRAY[BIGINT '2']]"))
                .failure()
                .hasErrorCode(LANCE_BAD_DATA)
                .hasMessageMatching("Cannot write Lance data file .*: A chunk of 2 array elements holds 9002 levels, more than a chunk of format 2.1 can hold.*");
        assertQuery("SELECT count(*) FROM crowded21", "VALUES 0");
    }

    @Test
    void testVectorTablesBothWritersBothReadersAndAnSdkIndex()
    {
        assertUpdate("CREATE SCHEMA IF NOT EXISTS jw");
        // narrow vectors (mini-block chunks) and wide ones (full-zip records, from 256 bytes), with NULL rows and elements
        String rows = """
                SELECT orderkey AS id,
                       transform(sequence(1, 16), i -> CAST(sin(orderkey * i) AS real)) AS emb,
                       CASE WHEN orderkey % 11 = 0 THEN NULL ELSE transform(sequence(1, 96), i -> CASE WHEN (orderkey + i) % 97 = 0 THEN NULL ELSE CAST(cos(orderkey + i) AS real) END) END AS wide,
                       CASE WHEN orderkey % 13 = 0 THEN NULL ELSE ARRAY[orderkey * 0.5, -orderkey * 1e-3, CAST(totalprice AS double)] END AS xyz,
                       transform(sequence(1, 300), i -> CAST((orderkey * i) % 127 AS tinyint)) AS codes,
                       comment
                FROM tpch.tiny.orders
                WHERE orderkey % 4 = 1""";
        writeWithBothWriters("vectors", 3750, """
                CREATE TABLE {table} (id bigint, emb array(real) WITH (dimension = 16), wide array(real) WITH (dimension = 96),
                    xyz array(double) WITH (dimension = 3), codes array(tinyint) WITH (dimension = 300), comment varchar)""", "INSERT INTO {table} " + rows);
        List<MaterializedRow> expected = computeActual(rows).getMaterializedRows();
        assertBothReadersReadBothWritersAlike("vectors", expected);
        long appended = sdkAppendsItsFirstBatch(dataset("vectors_java"));
        assertQuery("SELECT count(*) FROM vectors_java", "VALUES " + (3750 + appended));

        // the SDK's index over the Java writer's vectors, every partition probed, answers as the exact search does
        computeActual("ALTER TABLE vectors_java EXECUTE create_index(column => 'emb', index_type => 'ivf_flat', options => '{\"num_partitions\": 4}')");
        String nearest = "SELECT id FROM vectors_java ORDER BY euclidean_distance(emb, ARRAY[0.5, -0.25, 0.1, 0.9, 0.3, -0.7, 0.2, 0.0, 0.4, -0.1, 0.6, 0.8, -0.3, 0.05, 0.7, -0.9]) LIMIT 10";
        Session approximate = Session.builder(getSession())
                .setCatalogSessionProperty("lance", "vector_search", "approximate")
                .setCatalogSessionProperty("lance", "vector_nprobes", "4")
                .build();
        assertThat(computeActual(approximate, "EXPLAIN " + nearest).getOnlyValue().toString()).contains("through index emb_idx");
        // the SDK's append repeated some rows, so ids may come twice
        assertSameRows("nearest through the index", computeActual(approximate, nearest).getMaterializedRows(), computeActual(nearest).getMaterializedRows());
    }

    /**
     * Runs {@code statements} (each with {@code {table}} for the table name) once with each writer, on tables
     * {@code {table}_java} and {@code {table}_sdk}; the last statement writes {@code rows} rows.
     */
    private void writeWithBothWriters(String table, long rows, String... statements)
    {
        for (String writer : List.of("java", "sdk")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_writer", writer).build();
            for (int statement = 0; statement < statements.length - 1; statement++) {
                assertUpdate(session, statements[statement].replace("{table}", table + "_" + writer));
            }
            assertUpdate(session, statements[statements.length - 1].replace("{table}", table + "_" + writer), rows);
        }
        assertThat(writers(dataset(table + "_java"))).containsOnly(JavaDataFileWriter.WRITER_VALUE);
        assertThat(writers(dataset(table + "_sdk"))).containsOnly("");
    }

    /** Both readers read the tables of both writers as {@code expected}, and the SDK's own scan the Java writer's. */
    private void assertBothReadersReadBothWritersAlike(String table, List<MaterializedRow> expected)
    {
        for (String reader : List.of("java", "sdk")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty("lance", "file_reader", reader).build();
            for (String writer : List.of("java", "sdk")) {
                assertSameRows("%s written by %s, read by %s".formatted(table, writer, reader), computeActual(session, "SELECT * FROM %s_%s".formatted(table, writer)).getMaterializedRows(), expected);
            }
        }
        assertSameRows(table + " written by java, read by the SDK's scan", SdkScans.scanRows(dataset(table + "_java"), Ref.ofMain(), List.of()), expected);
    }

    /** As containsExactlyInAnyOrder, in linear time: tens of thousands of rows are compared here. */
    private static void assertSameRows(String what, List<MaterializedRow> actual, List<MaterializedRow> expected)
    {
        assertThat(actual).as(what).hasSameSizeAs(expected);
        Multiset<MaterializedRow> missing = HashMultiset.create(expected);
        List<MaterializedRow> unexpected = actual.stream().filter(row -> !missing.remove(row)).toList();
        assertThat(unexpected).as("%s: rows not expected (of %s), first ones, and rows missing: %s", what, actual.size(), missing.stream().limit(3).toList()).isEmpty();
    }

    private Path dataset(String table)
    {
        return warehouse.resolve("jw/" + table + ".lance");
    }

    /** The writer named in each data file's schema metadata ("" where none is), for every data file of the dataset. */
    private static List<String> writers(Path dataset)
    {
        return dataFiles(dataset).stream().map(TestLanceJavaWriter::writer).toList();
    }

    private static List<Path> dataFiles(Path dataset)
    {
        try (Stream<Path> files = Files.walk(dataset)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> file.getParent().getFileName().toString().equals("data") && file.toString().endsWith(".lance"))
                    .toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static LanceFileMetadata fileMetadata(Path file)
    {
        try {
            return LanceFileMetadata.read(new LocalFileSystem(file.getParent()).newInputFile(Location.of("local:///" + file.getFileName())));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String writer(Path file)
    {
        try {
            TrinoInputFile input = new LocalFileSystem(file.getParent()).newInputFile(Location.of("local:///" + file.getFileName()));
            LanceFileMetadata metadata = LanceFileMetadata.read(input);
            FileDescriptor descriptor = FileDescriptor.parseFrom(metadata.readGlobalBuffer(input, 0).getBytes());
            return Optional.ofNullable(descriptor.getSchema().getMetadataMap().get(JavaDataFileWriter.WRITER_KEY)).map(value -> value.toStringUtf8()).orElse("");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SDK writes the first batch of its own scan of the table as a new fragment and commits it; returns its rows. */
    private static long sdkAppendsItsFirstBatch(Path dataset)
    {
        return sdkAppendsItsFirstBatch(dataset, "2.2");
    }

    private static long sdkAppendsItsFirstBatch(Path dataset, String fileFormatVersion)
    {
        String uri = dataset.toString();
        try (BufferAllocator allocator = LanceFixtures.newAllocator();
                Dataset opened = Dataset.open(uri, allocator);
                LanceScanner scanner = opened.newScan(new ScanOptions.Builder().batchSize(100).build());
                ArrowReader reader = scanner.scanBatches()) {
            assertThat(reader.loadNextBatch()).isTrue();
            long rows = reader.getVectorSchemaRoot().getRowCount();
            List<org.lance.FragmentMetadata> fragments = Fragment.create(uri, allocator, reader.getVectorSchemaRoot(), new WriteParams.Builder().withDataStorageVersion(fileFormatVersion).build());
            new FragmentOperation.Append(fragments).commit(allocator, uri, Optional.of(opened.version()), Map.of()).close();
            return rows;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
