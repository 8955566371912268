package io.lancetrino.benchmark;

import io.lancetrino.file.LanceColumn;
import io.lancetrino.file.LanceColumnReader;
import io.lancetrino.file.LanceFileMetadata;
import io.lancetrino.file.LancePage;
import io.lancetrino.file.proto.encodings.CompressiveEncoding;
import io.lancetrino.file.proto.encodings.MiniBlockLayout;
import io.lancetrino.file.proto.encodings.PageLayout;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.local.LocalFileSystem;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.lang.Math.toIntExact;

/**
 * Per column of a table's data files: the encodings its pages got, their bytes, and the CPU the Java reader takes to
 * decode the column on one thread (best of a few runs), to compare what two writers chose for the same rows.
 */
final class ColumnEncodings
{
    private ColumnEncodings() {}

    /**
     * @param encodings page encodings, most used first, with their page counts, e.g. "GENERAL>BYTE_STREAM_SPLIT x8"
     */
    record ColumnResult(String column, long bytes, double decodeCpuSeconds, String encodings) {}

    static List<ColumnResult> measure(Path dataset, List<String> columns, List<Type> types, int runs)
    {
        List<Path> files = dataFiles(dataset);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return java.util.stream.IntStream.range(0, columns.size()).mapToObj(column -> {
            long bytes = 0;
            Map<String, Integer> encodings = new TreeMap<>();
            double best = Double.MAX_VALUE;
            for (int run = 0; run < runs; run++) {
                long cpu = 0;
                for (Path file : files) {
                    TrinoInputFile input = new LocalFileSystem(file.getParent()).newInputFile(Location.of("local:///" + file.getFileName()));
                    try (TrinoInput reads = input.newInput()) {
                        LanceFileMetadata metadata = LanceFileMetadata.read(input);
                        LanceColumn lanceColumn = metadata.columns().get(column);
                        long start = threads.getCurrentThreadCpuTime();
                        // a page at a time: a read across pages joins their blocks (flattening dictionaries), which a
                        // whole-file read would do at every page and a scan only where a batch spans two
                        long row = 0;
                        for (LancePage page : lanceColumn.pages()) {
                            LanceColumnReader.read(reads, lanceColumn, types.get(column), row, toIntExact(page.rows()));
                            row += page.rows();
                        }
                        cpu += threads.getCurrentThreadCpuTime() - start;
                        if (run == 0) {
                            for (LancePage page : metadata.columns().get(column).pages()) {
                                bytes += page.bufferSizes().stream().mapToLong(Long::longValue).sum();
                                encodings.merge(describe(page.layout()), 1, Integer::sum);
                            }
                        }
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                best = Math.min(best, cpu / 1e9);
            }
            String described = encodings.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .map(entry -> entry.getKey() + " x" + entry.getValue())
                    .reduce((a, b) -> a + ", " + b).orElse("");
            return new ColumnResult(columns.get(column), bytes, best, described);
        }).toList();
    }

    static String describe(PageLayout layout)
    {
        if (!layout.hasMiniBlockLayout()) {
            return layout.getLayoutCase().toString();
        }
        MiniBlockLayout miniBlock = layout.getMiniBlockLayout();
        String values = tree(miniBlock.getValueCompression());
        return miniBlock.hasDictionary() ? "DICTIONARY(" + tree(miniBlock.getDictionary()) + ") " + values : values;
    }

    private static String tree(CompressiveEncoding encoding)
    {
        return switch (encoding.getCompressionCase()) {
            case GENERAL -> encoding.getGeneral().getCompression().getScheme().toString().replace("COMPRESSION_ALGORITHM_", "") + ">" + tree(encoding.getGeneral().getValues());
            case BYTE_STREAM_SPLIT -> "BSS>" + tree(encoding.getByteStreamSplit().getValues());
            case FSST -> "FSST>" + tree(encoding.getFsst().getValues());
            case RLE -> "RLE";
            case FLAT -> "FLAT" + encoding.getFlat().getBitsPerValue();
            case INLINE_BITPACKING -> "BITPACK" + encoding.getInlineBitpacking().getUncompressedBitsPerValue();
            default -> encoding.getCompressionCase().toString();
        };
    }

    private static List<Path> dataFiles(Path dataset)
    {
        try (Stream<Path> files = Files.list(dataset.resolve("data"))) {
            return files.filter(file -> file.toString().endsWith(".lance")).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
