package io.lancetrino.benchmark;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A query of the benchmark; {@code {version}} in the text is replaced by the catalog's version of
 * {@code lineitem_deleted} before its DELETE.
 */
public record BenchmarkQuery(String name, String description, String sql)
{
    public BenchmarkQuery
    {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        requireNonNull(sql, "sql is null");
    }

    private static final String Q6_PREDICATE = """
            WHERE l_shipdate >= DATE '1994-01-01'
              AND l_shipdate < DATE '1995-01-01'
              AND l_discount BETWEEN 0.05 AND 0.07
              AND l_quantity < 24""";

    public static final List<BenchmarkQuery> ALL = List.of(
            new BenchmarkQuery("count_star", "count(*) of lineitem", "SELECT count(*) FROM lineitem"),
            new BenchmarkQuery("q1", "TPC-H Q1", """
                    SELECT l_returnflag, l_linestatus,
                           sum(l_quantity) AS sum_qty,
                           sum(l_extendedprice) AS sum_base_price,
                           sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
                           sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
                           avg(l_quantity) AS avg_qty,
                           avg(l_extendedprice) AS avg_price,
                           avg(l_discount) AS avg_disc,
                           count(*) AS count_order
                    FROM lineitem
                    WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
                    GROUP BY l_returnflag, l_linestatus
                    ORDER BY l_returnflag, l_linestatus"""),
            new BenchmarkQuery("q6", "TPC-H Q6", "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem\n" + Q6_PREDICATE),
            new BenchmarkQuery("selective_filter", "filter on a non-sorted column (l_suppkey = 42)",
                    "SELECT count(*), sum(l_extendedprice) FROM lineitem WHERE l_suppkey = 42"),
            new BenchmarkQuery("point_lookup", "point lookup by key (orders)", "SELECT * FROM orders WHERE o_orderkey = 4225"),
            new BenchmarkQuery("wide_string", "projection of one wide string column (l_comment)", "SELECT sum(length(l_comment)) FROM lineitem"),
            new BenchmarkQuery("q12", "TPC-H Q12 (join lineitem, orders)", """
                    SELECT l_shipmode,
                           sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count,
                           sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS low_line_count
                    FROM orders, lineitem
                    WHERE o_orderkey = l_orderkey
                      AND l_shipmode IN ('MAIL', 'SHIP')
                      AND l_commitdate < l_receiptdate
                      AND l_shipdate < l_commitdate
                      AND l_receiptdate >= DATE '1994-01-01'
                      AND l_receiptdate < DATE '1995-01-01'
                    GROUP BY l_shipmode
                    ORDER BY l_shipmode"""),
            new BenchmarkQuery("q6_deleted", "Q6 on lineitem with 10% of rows deleted",
                    "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem_deleted\n" + Q6_PREDICATE),
            new BenchmarkQuery("q6_old_version", "Q6 FOR VERSION AS OF the version before that DELETE",
                    "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem_deleted FOR VERSION AS OF {version}\n" + Q6_PREDICATE));

    public String sqlFor(String version)
    {
        return sql.replace("{version}", version);
    }
}
