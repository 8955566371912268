package io.lancetrino.tests;

import com.google.common.collect.ImmutableList;
import io.lancetrino.tests.fixtures.TemporaryWarehouses;
import io.lancetrino.tests.server.DemoWarehouse;
import io.lancetrino.tests.server.ServeProcess;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.lancetrino.tests.LanceQueryRunner.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.parallel.ExecutionMode.SAME_THREAD;

/**
 * Every SQL example of the SQL reference ({@code docs/sql/}) runs: the fenced blocks whose info string is {@code sql},
 * statement by statement in page order, each page on a fresh copy of the demo warehouse with catalog {@code lance}
 * and schema {@code demo}, as a reader would run them in the Trino CLI. A block marked {@code sql illustrative}
 * (GitHub still highlights it as SQL) is skipped on purpose: a placeholder, or a statement that depends on when it runs.
 */
// the pages replace the catalog one after another
@Execution(SAME_THREAD)
final class TestDocumentedSql
        extends AbstractTestQueryFramework
{
    private static final Path PAGES = ServeProcess.projectRoot().resolve("docs/sql");
    private static final String RUN = "sql";
    private static final String ILLUSTRATIVE = "sql illustrative";

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        // every page replaces the catalog with one over its own demo warehouse, so pages cannot depend on each other;
        // one node, since the examples' results do not depend on how many there are and the test starts faster
        return LanceQueryRunner.builder(TemporaryWarehouses.create("lance-docs"))
                .withSchema("demo")
                .setWorkerCount(0)
                .build();
    }

    /**
     * One test per page, named by it.
     */
    @TestFactory
    Stream<DynamicTest> testEverySqlBlockRuns()
            throws IOException
    {
        List<String> pages;
        try (Stream<Path> files = Files.list(PAGES)) {
            pages = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".md"))
                    .sorted()
                    .toList();
        }
        assertThat(pages).isNotEmpty();
        return pages.stream().map(page -> DynamicTest.dynamicTest("docs/sql/" + page, () -> runPage(page)));
    }

    private void runPage(String page)
            throws Exception
    {
        List<CodeBlock> blocks = CodeBlock.read(PAGES.resolve(page));
        for (CodeBlock block : blocks) {
            if (block.info().startsWith("sql")) {
                // a misspelt marker would skip the block silently
                assertThat(block.info()).as("info string of the block of docs/sql/%s line %d", page, block.line()).isIn(RUN, ILLUSTRATIVE);
            }
        }
        useFreshDemoWarehouse();
        Session session = getSession();
        for (CodeBlock block : blocks) {
            if (!block.info().equals(RUN)) {
                continue;
            }
            String where = "docs/sql/%s, block of line %d ('%s')".formatted(page, block.line(), block.text().lines().findFirst().orElse(""));
            List<String> statements;
            try {
                statements = statements(block.text());
            }
            catch (IllegalArgumentException e) {
                throw new AssertionError(where + ": " + e.getMessage(), e);
            }
            assertThat(statements).as(where).isNotEmpty();
            for (String statement : statements) {
                MaterializedResult result;
                try {
                    result = getQueryRunner().execute(session, statement);
                }
                catch (RuntimeException e) {
                    throw new AssertionError("%s: statement failed: %s\n%s".formatted(where, statement, e.getMessage()), e);
                }
                session = withSessionSettings(session, result, where);
            }
        }
    }

    @Test
    void testStatementsSplitOutsideLiteralsAndWithoutComments()
    {
        assertThat(statements("""
                SELECT ';', 'it''s -- no comment' FROM "t;--x";   -- a comment; not a statement
                -- a whole line of comment
                SELECT 1
                    + 2; SELECT 3;
                """))
                .containsExactly("SELECT ';', 'it''s -- no comment' FROM \"t;--x\"", "SELECT 1\n    + 2", "SELECT 3");
        assertThatThrownBy(() -> statements("SELECT 1"))
                .hasMessage("Statement without ';' at the end of the block: SELECT 1");
        assertThatThrownBy(() -> statements("SELECT 'a;"))
                .hasMessage("Unterminated ' in block: SELECT 'a;");
    }

    /**
     * Points catalog {@code lance} at a new copy of the demo warehouse.
     */
    private void useFreshDemoWarehouse()
            throws Exception
    {
        Path warehouse = TemporaryWarehouses.create("lance-docs");
        DemoWarehouse.create(warehouse);
        getQueryRunner().execute("DROP CATALOG " + CATALOG);
        getDistributedQueryRunner().createCatalog(CATALOG, "lance", Map.of("lance.warehouse", warehouse.toAbsolutePath().toString()));
    }

    /**
     * The session after a statement, with what a {@code SET SESSION} set, as the CLI carries it to the next statement.
     */
    private static Session withSessionSettings(Session session, MaterializedResult result, String where)
    {
        assertThat(result.getResetSessionProperties()).as("%s: RESET SESSION is not carried over by this test", where).isEmpty();
        if (result.getSetSessionProperties().isEmpty()) {
            return session;
        }
        Session.SessionBuilder builder = Session.builder(session);
        result.getSetSessionProperties().forEach((name, value) -> {
            int dot = name.indexOf('.');
            if (dot < 0) {
                builder.setSystemProperty(name, value);
            }
            else {
                builder.setCatalogSessionProperty(name.substring(0, dot), name.substring(dot + 1), value);
            }
        });
        return builder.build();
    }

    /**
     * The statements of a block: split on {@code ;} and without {@code --} comments, both outside string literals and
     * quoted identifiers.
     */
    static List<String> statements(String block)
    {
        ImmutableList.Builder<String> statements = ImmutableList.builder();
        StringBuilder statement = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < block.length(); i++) {
            char c = block.charAt(i);
            if (quote != 0) {
                // a doubled quote closes and reopens the literal
                statement.append(c);
                if (c == quote) {
                    quote = 0;
                }
            }
            else if (c == '\'' || c == '"') {
                quote = c;
                statement.append(c);
            }
            else if (c == '-' && block.startsWith("-", i + 1)) {
                int end = block.indexOf('\n', i);
                i = (end < 0 ? block.length() : end) - 1;
            }
            else if (c == ';') {
                statements.add(statement.toString().strip());
                statement.setLength(0);
            }
            else {
                statement.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("Unterminated %s in block: %s".formatted(quote, block));
        }
        if (!statement.toString().isBlank()) {
            // the CLI would not send it either
            throw new IllegalArgumentException("Statement without ';' at the end of the block: " + statement.toString().strip());
        }
        return statements.build().stream()
                .filter(text -> !text.isEmpty())
                .toList();
    }

    /**
     * A fenced code block of a markdown page: the line of its opening fence, its info string and its text.
     */
    record CodeBlock(int line, String info, String text)
    {
        static List<CodeBlock> read(Path page)
                throws IOException
        {
            List<String> lines = Files.readAllLines(page);
            ImmutableList.Builder<CodeBlock> blocks = ImmutableList.builder();
            int start = -1;
            String info = null;
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).stripLeading();
                if (start < 0 && line.startsWith("```")) {
                    start = i + 1;
                    info = line.substring(3).strip();
                    text.setLength(0);
                }
                else if (start >= 0 && line.startsWith("```")) {
                    blocks.add(new CodeBlock(start, info, text.toString()));
                    start = -1;
                }
                else if (start >= 0) {
                    text.append(lines.get(i)).append('\n');
                }
            }
            if (start >= 0) {
                throw new IllegalArgumentException("%s: code block of line %d is not closed".formatted(page, start));
            }
            return blocks.build();
        }
    }
}
