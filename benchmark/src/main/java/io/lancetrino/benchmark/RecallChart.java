package io.lancetrino.benchmark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The recall/latency picture ANN users compare engines by: recall@10 across, p50 latency up, one line per engine and
 * refine factor through the {@code nprobes} swept, one panel per workload. Plain SVG, no dependencies.
 */
final class RecallChart
{
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN_LEFT = 70;
    private static final int MARGIN_RIGHT = 170;
    private static final int MARGIN_TOP = 40;
    private static final int MARGIN_BOTTOM = 50;
    private static final List<String> COLORS = List.of("#1f77b4", "#6baed6", "#d62728", "#ff9896");

    private RecallChart() {}

    static String svg(List<AnnSearchTimings.WorkloadResult> workloads)
    {
        int width = PANEL_WIDTH * workloads.size();
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n".formatted(width, PANEL_HEIGHT));
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (int panel = 0; panel < workloads.size(); panel++) {
            panel(out, workloads.get(panel), panel * PANEL_WIDTH);
        }
        out.append("</svg>\n");
        return out.toString();
    }

    private static void panel(StringBuilder out, AnnSearchTimings.WorkloadResult workload, int left)
    {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (AnnSearchTimings.Point point : workload.sweep()) {
            String refine = point.setting().refineFactor() == 0 ? "" : ", refine " + point.setting().refineFactor();
            series.computeIfAbsent("Trino" + refine, _ -> new ArrayList<>()).add(new double[] {point.trinoRecall(), point.trino().p50Seconds() * 1000, point.setting().nprobes()});
            series.computeIfAbsent("Lance SDK" + refine, _ -> new ArrayList<>()).add(new double[] {point.sdkRecall(), point.sdk().p50Seconds() * 1000, point.setting().nprobes()});
        }
        double minRecall = Math.max(0, Math.floor(series.values().stream().flatMap(List::stream).mapToDouble(value -> value[0]).min().orElse(0) * 10) / 10);
        double maxMillis = series.values().stream().flatMap(List::stream).mapToDouble(value -> value[1]).max().orElse(1) * 1.1;
        int plotWidth = PANEL_WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
        int plotHeight = PANEL_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
        int x0 = left + MARGIN_LEFT;
        int y0 = MARGIN_TOP + plotHeight;
        out.append(text(left + PANEL_WIDTH / 2 - 60, 20, "%s: %,d x %d, %s".formatted(workload.table(), workload.rows(), workload.dimension(), workload.build().indexType()), "middle"));
        out.append("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n".formatted(x0, y0, x0 + plotWidth, y0));
        out.append("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n".formatted(x0, y0, x0, MARGIN_TOP));
        for (int tick = 0; tick <= 4; tick++) {
            double recall = minRecall + (1 - minRecall) * tick / 4;
            double millis = maxMillis * tick / 4;
            int x = x0 + plotWidth * tick / 4;
            int y = y0 - plotHeight * tick / 4;
            out.append(text(x, y0 + 18, format("%.2f", recall), "middle"));
            out.append(text(x0 - 8, y + 4, format("%.0f", millis), "end"));
            out.append("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>\n".formatted(x0, y, x0 + plotWidth, y));
        }
        out.append(text(x0 + plotWidth / 2, y0 + 38, "recall@10", "middle"));
        out.append("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">p50 latency, ms</text>\n".formatted(left + 18, MARGIN_TOP + plotHeight / 2, left + 18, MARGIN_TOP + plotHeight / 2));
        int color = 0;
        for (Map.Entry<String, List<double[]>> line : series.entrySet()) {
            String stroke = COLORS.get(color % COLORS.size());
            List<double[]> points = line.getValue().stream().sorted(Comparator.comparingDouble(value -> value[2])).toList();
            StringBuilder path = new StringBuilder();
            for (double[] point : points) {
                double x = x0 + plotWidth * (point[0] - minRecall) / (1 - minRecall);
                double y = y0 - plotHeight * point[1] / maxMillis;
                path.append(format("%.1f,%.1f ", x, y));
                out.append(format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s nprobes %.0f: recall %.3f, %.1f ms</title></circle>%n", x, y, stroke, line.getKey(), point[2], point[0], point[1]));
            }
            out.append("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n".formatted(stroke, path.toString().trim()));
            int legendY = MARGIN_TOP + 16 * color;
            out.append("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n".formatted(x0 + plotWidth + 12, legendY, x0 + plotWidth + 32, legendY, stroke));
            out.append(text(x0 + plotWidth + 36, legendY + 4, line.getKey(), "start"));
            color++;
        }
        out.append(text(x0 + plotWidth + 12, MARGIN_TOP + 16 * color + 8, "points: nprobes", "start"));
    }

    private static String text(int x, int y, String content, String anchor)
    {
        return "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">%s</text>\n".formatted(x, y, anchor, content.replace("&", "&amp;").replace("<", "&lt;"));
    }

    private static String format(String pattern, Object... values)
    {
        return String.format(Locale.ROOT, pattern, values);
    }
}
