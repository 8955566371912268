package io.lancetrino.tests;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.ManifestCache;
import io.lancetrino.metadata.fs.LocalTableFileSystem;
import io.lancetrino.metadata.proto.Field;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.SdkScans;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import org.lance.Ref;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.collect.MoreCollectors.onlyElement;
import static io.lancetrino.tests.fixtures.LanceFixtures.JSON_VALUES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lance {@code json} columns (JSONB, extension {@code lance.json}): written by the Lance SDK and read as Trino
 * {@code json}, and written by Trino (INSERT, CREATE TABLE, CTAS, UPDATE, MERGE, optimize) so that the SDK reads the
 * same JSON it would have stored itself.
 */
final class TestLanceJson
        extends AbstractTestQueryFramework
{
    private Path warehouse;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        warehouse = TemporaryWarehouses.create("lance-json");
        closeAfterClass(() -> MoreFiles.deleteRecursively(warehouse, RecursiveDeleteOption.ALLOW_INSECURE));
        LanceFixtures.jsonColumn(Files.createDirectories(warehouse.resolve("j")), "docs");
        // written to by the tests; docs stays as the SDK wrote it
        LanceFixtures.jsonColumn(warehouse.resolve("j"), "sdk_docs");
        return LanceQueryRunner.builder(warehouse).withSchema("j").build();
    }

    @Test
    void testColumnTypesAndPositions()
    {
        assertQuery("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'j' AND table_name = 'docs' ORDER BY ordinal_position",
                "VALUES ('id', 'bigint'), ('doc', 'json'), ('after', 'varchar')");
    }

    @Test
    void testValuesAreTrinoCanonicalJson()
    {
        assertQuery("SELECT id, json_format(doc), after FROM docs",
                """
                VALUES
                  (1, '{"a":1,"b":[true,null,"x"],"c":{"d":1.5}}', 'after-1'),
                  (2, NULL, 'after-2'),
                  (3, '[1,-2,300,-70000,9000000000,12345678901234567890,0.1,1.0,0.0,0]', 'after-3'),
                  (4, '"a\\"b\\n\u00e9\\uD83D\\uDE00"', 'after-4'),
                  (5, '{"A":false,"z":{},"\u00fc":[]}', 'after-5'),
                  (6, 'null', 'after-6')
                """);
        // what json_parse makes of the text the SDK was given is exactly what the column holds
        for (int i = 0; i < JSON_VALUES.size(); i++) {
            if (JSON_VALUES.get(i) == null) {
                continue;
            }
            MaterializedResult result = computeActual("SELECT json_format(doc) = json_format(json_parse('%s')) FROM docs WHERE id = %s"
                    .formatted(JSON_VALUES.get(i).replace("'", "''"), i + 1));
            assertThat(result.getOnlyValue()).as("row %s", i + 1).isEqualTo(true);
        }
    }

    @Test
    void testJsonFunctions()
    {
        assertQuery("SELECT json_extract_scalar(doc, '$.a'), json_extract_scalar(doc, '$.c.d'), json_extract_scalar(doc, '$.b[2]'), json_array_length(json_extract(doc, '$.b')) FROM docs WHERE id = 1",
                "VALUES ('1', '1.5', 'x', 3)");
        assertQuery("SELECT json_extract_scalar(doc, '$[5]'), json_array_get(doc, 6) IS NOT NULL FROM docs WHERE id = 3",
                "VALUES ('12345678901234567890', true)");
        assertQuery("SELECT count(*) FROM docs WHERE doc IS NULL", "VALUES 1");
        assertQuery("SELECT id FROM docs WHERE json_extract_scalar(doc, '$.A') = 'false'", "VALUES 5");
        assertQuery("SELECT after FROM docs WHERE id = 6 AND doc IS NOT NULL", "VALUES 'after-6'");
    }

    @Test
    void testInsertIntoSdkTable()
    {
        assertUpdate(insertJsonValues("sdk_docs", 10), JSON_VALUES.size());
        assertUpdate("INSERT INTO sdk_docs VALUES (20, JSON '{\"k\":[1,2.5,\"\u00fc\"]}', 'after-20')", 1);
        // rows written by Trino read back as json_parse gives them, the same as the SDK's own rows
        assertQuery("SELECT count(*) FROM sdk_docs d JOIN sdk_docs t ON t.id = d.id + 10 WHERE d.id <= 6 AND json_format(t.doc) IS NOT DISTINCT FROM json_format(d.doc) AND t.after = d.after",
                "VALUES 6");
        assertQuery("SELECT json_format(doc) FROM sdk_docs WHERE id = 20", "VALUES '{\"k\":[1,2.5,\"\u00fc\"]}'");
        // and the SDK reads them as the JSON it stored for the same texts
        Map<Long, Object> sdk = sdkDocs("sdk_docs");
        for (long id = 1; id <= JSON_VALUES.size(); id++) {
            assertThat(sdk.get(id + 10)).as("id %s", id + 10).isEqualTo(trinoForm(sdk.get(id)));
        }
        assertThat(sdk.get(20L)).isEqualTo("{\"k\":[1,2.5,\"\u00fc\"]}");
        assertQuery("SELECT count(*) FROM sdk_docs", "VALUES 13");
    }

    @Test
    void testCreateTableStoresJsonLikeTheSdk()
    {
        assertUpdate("CREATE TABLE created (id bigint, doc json, after varchar)");
        assertUpdate(insertJsonValues("created", 0), JSON_VALUES.size());
        assertQuery("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'j' AND table_name = 'created' ORDER BY ordinal_position",
                "VALUES ('id', 'bigint'), ('doc', 'json'), ('after', 'varchar')");
        assertSameRows("SELECT id, json_format(doc), after FROM created", "SELECT id, json_format(doc), after FROM docs");
        // the manifest field is the SDK's: logical type json, extension lance.json
        Field sdkField = field("docs", "doc");
        Field field = field("created", "doc");
        assertThat(field.getLogicalType()).isEqualTo("json");
        assertThat(field.getExtensionName()).isEqualTo("lance.json");
        assertThat(field.getEncoding()).isEqualTo(sdkField.getEncoding());
        assertThat(field.getMetadataMap()).isEqualTo(sdkField.getMetadataMap());
        assertThat(sdkDocs("created")).isEqualTo(trinoForm(sdkDocs("docs")));

        // a column added later reads as NULL in older fragments and holds JSON in new ones
        assertUpdate("ALTER TABLE created ADD COLUMN extra json");
        assertThat(field("created", "extra").getLogicalType()).isEqualTo("json");
        assertUpdate("INSERT INTO created VALUES (100, NULL, 'x', JSON '{\"e\":[1]}')", 1);
        assertQuery("SELECT id, json_format(extra) FROM created WHERE extra IS NOT NULL", "VALUES (100, '{\"e\":[1]}')");

        assertUpdate("CREATE TABLE ctas AS SELECT id, doc, after FROM docs", JSON_VALUES.size());
        assertThat(field("ctas", "doc").getLogicalType()).isEqualTo("json");
        assertSameRows("SELECT id, json_format(doc), after FROM ctas", "SELECT id, json_format(doc), after FROM docs");
        assertThat(sdkDocs("ctas")).isEqualTo(trinoForm(sdkDocs("docs")));
    }

    @Test
    void testUpdateDeleteMerge()
    {
        assertUpdate("CREATE TABLE changed AS SELECT id, doc, after FROM docs", JSON_VALUES.size());
        assertUpdate("UPDATE changed SET doc = JSON '{\"updated\":[true,1]}' WHERE id = 1", 1);
        // rows rewritten for another column keep their JSON
        assertUpdate("UPDATE changed SET after = 'changed' WHERE id IN (3, 4)", 2);
        assertUpdate("DELETE FROM changed WHERE id = 5", 1);
        assertUpdate("""
                MERGE INTO changed t USING (VALUES (6, JSON '[\"merged\"]'), (7, JSON '{\"new\":null}')) s (id, doc) ON t.id = s.id
                WHEN MATCHED THEN UPDATE SET doc = s.doc
                WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.doc, 'after-7')
                """, 2);
        MaterializedResult expected = computeActual("""
                SELECT id, json_format(doc), after FROM (VALUES
                  (1, json_parse('{"updated":[true,1]}'), 'after-1'),
                  (2, NULL, 'after-2'),
                  (6, json_parse('["merged"]'), 'after-6'),
                  (7, json_parse('{"new":null}'), 'after-7'))
                  t (id, doc, after)
                UNION ALL SELECT id, json_format(doc), 'changed' FROM docs WHERE id IN (3, 4)
                """);
        assertThat(computeActual("SELECT id, json_format(doc), after FROM changed").getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
        Map<Long, Object> docs = trinoForm(sdkDocs("docs"));
        Map<Long, Object> changed = sdkDocs("changed");
        assertThat(changed.keySet()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 6L, 7L);
        assertThat(changed.get(3L)).isEqualTo(docs.get(3L));
        assertThat(changed.get(4L)).isEqualTo(docs.get(4L));
        assertThat(changed.get(2L)).isNull();
        assertThat(changed.get(1L)).isEqualTo("{\"updated\":[true,1]}");
        assertThat(changed.get(6L)).isEqualTo("[\"merged\"]");
        assertThat(changed.get(7L)).isEqualTo("{\"new\":null}");

        // DELETE on the table the SDK wrote writes only deletion files
        assertUpdate("CREATE TABLE deleted AS SELECT * FROM docs", JSON_VALUES.size());
        assertUpdate("DELETE FROM sdk_docs WHERE id = 99", 0);
        assertUpdate("DELETE FROM deleted WHERE json_extract_scalar(doc, '$.a') = '1'", 1);
        assertQuery("SELECT id FROM deleted", "VALUES 2, 3, 4, 5, 6");
        assertThat(sdkDocs("deleted").keySet()).containsExactlyInAnyOrder(2L, 3L, 4L, 5L, 6L);
    }

    @Test
    void testOptimizeKeepsJson()
    {
        assertUpdate("CREATE TABLE compacted AS SELECT * FROM docs WHERE id <= 3", 3);
        assertUpdate("INSERT INTO compacted SELECT * FROM docs WHERE id > 3", 3);
        assertUpdate("INSERT INTO compacted VALUES (7, JSON '[{\"x\":-70000}]', 'after-7')", 1);
        assertUpdate("DELETE FROM compacted WHERE id = 2", 1);
        MaterializedResult before = computeActual("SELECT id, json_format(doc), after FROM compacted");
        Map<Long, Object> sdkBefore = sdkDocs("compacted");
        assertQuery("SELECT count(*) FROM \"compacted$fragments\"", "VALUES 3");

        computeActual("ALTER TABLE compacted EXECUTE optimize");

        assertQuery("SELECT count(*) FROM \"compacted$fragments\"", "VALUES 1");
        assertThat(computeActual("SELECT id, json_format(doc), after FROM compacted").getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(before.getMaterializedRows());
        assertThat(sdkDocs("compacted")).isEqualTo(sdkBefore);
    }

    @Test
    void testValuesLanceCannotStoreAreRefusedNamingTheColumn()
    {
        assertUpdate("CREATE TABLE refused (id bigint, doc json)");
        assertQueryFails("INSERT INTO refused VALUES (1, JSON '[1e400]')",
                "Column doc: cannot store JSON value as Lance JSONB: number 1E\\+400 is beyond the range of a double");
        assertQueryFails("INSERT INTO refused VALUES (1, JSON '\"\\uD800\"')",
                "Column doc: cannot store JSON value as Lance JSONB: string holds the lone surrogate \\\\uD800");
        assertQuery("SELECT count(*) FROM refused", "VALUES 0");
    }

    private void assertSameRows(String actual, String expected)
    {
        assertThat(computeActual(actual).getMaterializedRows()).containsExactlyInAnyOrderElementsOf(computeActual(expected).getMaterializedRows());
    }

    /**
     * What the SDK returns for a value Trino wrote: Trino's json has no -0.0 (json_parse makes it 0.0), so a
     * value read and written again, or inserted as json_parse of the text the SDK was given, stores 0.0.
     */
    private static Object trinoForm(Object sdkDoc)
    {
        return sdkDoc instanceof String text ? text.replace(",-0.0,", ",0.0,") : sdkDoc;
    }

    private static Map<Long, Object> trinoForm(Map<Long, Object> sdkDocs)
    {
        Map<Long, Object> docs = new HashMap<>();
        sdkDocs.forEach((id, doc) -> docs.put(id, trinoForm(doc)));
        return docs;
    }

    private static String insertJsonValues(String table, int idOffset)
    {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < JSON_VALUES.size(); i++) {
            String doc = JSON_VALUES.get(i) == null ? "NULL" : "json_parse('%s')".formatted(JSON_VALUES.get(i).replace("'", "''"));
            rows.add("(%s, %s, 'after-%s')".formatted(i + 1 + idOffset, doc, i + 1));
        }
        return "INSERT INTO %s VALUES %s".formatted(table, String.join(", ", rows));
    }

    /**
     * The {@code doc} of each row by id, as the SDK's scanner returns it.
     */
    private Map<Long, Object> sdkDocs(String table)
    {
        Map<Long, Object> docs = new HashMap<>();
        for (List<Object> row : SdkScans.scan(warehouse.resolve("j").resolve(table + ".lance"), Ref.ofMain(), List.of("id", "doc"))) {
            // the scanner returns json columns as JSON text (extension arrow.json)
            docs.put((Long) row.get(0), row.get(1));
        }
        return docs;
    }

    private Field field(String table, String column)
    {
        Path root = warehouse.resolve("j").resolve(table + ".lance");
        LanceTable lance = new LanceTable(new LocalTableFileSystem(), root.toString(), table, ManifestCache.disabled());
        return lance.snapshot(Optional.empty(), lance.latestVersion(Optional.empty()).getAsLong()).manifest().getFieldsList().stream()
                .filter(field -> field.getName().equals(column))
                .collect(onlyElement());
    }
}
