package io.lancetrino.file.writer;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Row-by-row comparison for the writer's round trips, since a whole-list message of nested values is too long to read. */
final class RowAssertions
{
    private RowAssertions() {}

    /** Names the first row that differs. */
    static void assertSameRows(List<?> actual, List<?> expected, String where)
    {
        for (int row = 0; row < Math.min(actual.size(), expected.size()); row++) {
            assertThat(actual.get(row)).as("%s, row %s", where, row).isEqualTo(expected.get(row));
        }
        assertThat(actual.size()).as("%s, rows", where).isEqualTo(expected.size());
    }
}
