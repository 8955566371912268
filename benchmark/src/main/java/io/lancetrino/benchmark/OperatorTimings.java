package io.lancetrino.benchmark;

import io.trino.testing.DistributedQueryRunner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.lancetrino.benchmark.BenchmarkEnvironment.session;

/**
 * CPU per plan node from {@code EXPLAIN ANALYZE}, Lance and Iceberg runs alternating in one engine. Whole-query CPU
 * medians move by ±15% between runs of {@code bin/bench}; a scan's own CPU measured this way moves by about 5%, and it
 * tells the connector's work (the scan) from the engine's work on its blocks (aggregations, joins, exchanges).
 */
final class OperatorTimings
{
    // the queries whose scans the read-CPU goal is about, and a count of each lineitem column: one reader at a time
    static final List<String> QUERIES = List.of("q1", "q6", "q12", "wide_string");
    static final List<String> LINEITEM_COLUMNS = List.of("l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice",
            "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment");

    // a plan node's first line, after the tree's drawing characters: its name and, in brackets, its details
    private static final Pattern NODE = Pattern.compile("^[\\s│├└─]*([A-Z][A-Za-z]*)(?:\\[(.*))?$");
    // a node's CPU line gives its share in parentheses; a fragment's CPU line (its nodes' total) does not
    private static final Pattern CPU = Pattern.compile("CPU: ([0-9.]+)(ns|us|ms|s|m) \\(");
    private static final Pattern TABLE = Pattern.compile("table = [a-z_]+:[^.]+\\.([A-Za-z_]+)");
    private static final Pattern AGGREGATION_TYPE = Pattern.compile("type = ([A-Z]+)");

    private OperatorTimings() {}

    /** One plan node's CPU, in milliseconds: medians over the runs. */
    public record NodeCpu(String node, double lanceMillis, double icebergMillis) {}

    public record QueryNodes(String query, List<NodeCpu> nodes)
    {
        /** The nodes with CPU on either side: EXPLAIN ANALYZE rounds to milliseconds, and exchanges mostly round to 0. */
        public List<NodeCpu> measurable()
        {
            return nodes.stream().filter(node -> node.lanceMillis() + node.icebergMillis() > 0).toList();
        }
    }

    public static List<QueryNodes> measure(DistributedQueryRunner runner, int runs)
    {
        List<QueryNodes> results = new ArrayList<>();
        for (BenchmarkQuery query : BenchmarkQuery.ALL) {
            if (QUERIES.contains(query.name())) {
                results.add(measure(runner, query.name(), query.sql(), runs));
            }
        }
        for (String column : LINEITEM_COLUMNS) {
            results.add(measure(runner, "count(%s)".formatted(column), "SELECT count(%s) FROM lineitem".formatted(column), runs));
        }
        return results;
    }

    private static QueryNodes measure(DistributedQueryRunner runner, String name, String sql, int runs)
    {
        Map<String, List<Double>> lance = new LinkedHashMap<>();
        Map<String, List<Double>> iceberg = new LinkedHashMap<>();
        // a warm-up run each, as for the query timings
        nodeCpu(runner, "lance", sql);
        nodeCpu(runner, "iceberg", sql);
        for (int run = 0; run < runs; run++) {
            nodeCpu(runner, "lance", sql).forEach((node, millis) -> lance.computeIfAbsent(node, _ -> new ArrayList<>()).add(millis));
            nodeCpu(runner, "iceberg", sql).forEach((node, millis) -> iceberg.computeIfAbsent(node, _ -> new ArrayList<>()).add(millis));
        }
        List<NodeCpu> nodes = new ArrayList<>();
        for (Map.Entry<String, List<Double>> entry : lance.entrySet()) {
            List<Double> other = iceberg.get(entry.getKey());
            // nodes of one plan only (an exchange Iceberg's plan lacks) say nothing side by side
            if (other != null) {
                nodes.add(new NodeCpu(entry.getKey(), Measurements.median(entry.getValue()), Measurements.median(other)));
            }
        }
        QueryNodes result = new QueryNodes(name, nodes);
        for (NodeCpu node : result.measurable()) {
            System.out.printf("%-26s %-28s lance %7.1f ms  iceberg %7.1f ms  ratio %.2f%n", name, node.node(), node.lanceMillis(), node.icebergMillis(), node.lanceMillis() / node.icebergMillis());
        }
        return result;
    }

    /** Milliseconds of CPU per plan node label; nodes of one label (two exchanges, say) add up. */
    static Map<String, Double> nodeCpu(DistributedQueryRunner runner, String catalog, String sql)
    {
        String plan = (String) runner.execute(session(catalog), "EXPLAIN ANALYZE " + sql).getOnlyValue();
        return parse(plan);
    }

    static Map<String, Double> parse(String plan)
    {
        Map<String, Double> cpu = new LinkedHashMap<>();
        String node = null;
        for (String line : plan.split("\n")) {
            Matcher header = NODE.matcher(line);
            if (header.matches() && !line.strip().startsWith("Fragment")) {
                node = label(header.group(1), header.group(2) == null ? "" : header.group(2));
                continue;
            }
            Matcher time = CPU.matcher(line);
            if (node != null && time.find()) {
                cpu.merge(node, millis(Double.parseDouble(time.group(1)), time.group(2)), Double::sum);
                node = null;
            }
        }
        return cpu;
    }

    private static String label(String name, String details)
    {
        Matcher table = TABLE.matcher(details);
        if (table.find()) {
            // ScanProject on Lance can be ScanFilterProject on Iceberg: the filters a connector enforces leave the plan
            return "scan " + table.group(1);
        }
        Matcher type = AGGREGATION_TYPE.matcher(details);
        if (name.equals("Aggregate") && type.find()) {
            return "%s %s".formatted(name, type.group(1));
        }
        return name;
    }

    private static double millis(double value, String unit)
    {
        return switch (unit) {
            case "ns" -> value / 1e6;
            case "us" -> value / 1e3;
            case "ms" -> value;
            case "s" -> value * 1e3;
            case "m" -> value * 60e3;
            default -> throw new IllegalArgumentException("unit " + unit);
        };
    }
}
