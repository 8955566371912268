package io.lancetrino.tests;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.lancetrino.tests.fixtures.LanceFixtures;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.lancetrino.tests.fixtures.LanceFixtures.JSON_VALUES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lance {@code json} columns (JSONB, extension {@code lance.json}) written by the Lance SDK, read as Trino {@code json}.
 */
final class TestLanceJson
        extends AbstractTestQueryFramework
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-json");
        closeAfterClass(() -> MoreFiles.deleteRecursively(warehouse, RecursiveDeleteOption.ALLOW_INSECURE));
        LanceFixtures.jsonColumn(Files.createDirectories(warehouse.resolve("j")), "docs");
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
    void testWritesAreRefusedNamingTheColumn()
    {
        assertQueryFails("INSERT INTO docs VALUES (7, JSON '{}', 'after-7')",
                "Cannot write to table j.docs: column doc has Lance type json, which this connector reads but cannot write");
        assertQuery("SELECT count(*) FROM docs", "VALUES 6");
    }
}
