package io.lancetrino.metadata.maintenance;

import com.google.common.collect.ImmutableMap;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a cleanup removed (or, in a dry run, would remove) and why it kept the versions it kept.
 */
public record CleanupReport(long versionsRemoved, Map<FileKind, Long> filesRemoved, long bytesFreed, Map<KeepReason, Long> versionsKept)
{
    public CleanupReport
    {
        filesRemoved = ImmutableMap.copyOf(filesRemoved);
        versionsKept = ImmutableMap.copyOf(versionsKept);
    }

    public long filesRemoved(FileKind kind)
    {
        return filesRemoved.getOrDefault(kind, 0L);
    }

    public long versionsKept(KeepReason reason)
    {
        return versionsKept.getOrDefault(reason, 0L);
    }

    public long totalFilesRemoved()
    {
        return filesRemoved.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The report as metric rows: {@code versions_removed}, {@code <kind>_files_removed}, {@code bytes_freed},
     * {@code versions_kept_<reason>}.
     */
    public Map<String, Long> metrics()
    {
        ImmutableMap.Builder<String, Long> metrics = ImmutableMap.builder();
        metrics.put("versions_removed", versionsRemoved);
        for (FileKind kind : FileKind.values()) {
            metrics.put(kind.metricName() + "_files_removed", filesRemoved(kind));
        }
        metrics.put("bytes_freed", bytesFreed);
        for (KeepReason reason : KeepReason.values()) {
            metrics.put("versions_kept_" + reason.metricName(), versionsKept(reason));
        }
        return metrics.buildOrThrow();
    }

    static final class Builder
    {
        private long versionsRemoved;
        private final Map<FileKind, Long> filesRemoved = new EnumMap<>(FileKind.class);
        private long bytesFreed;
        private final Map<KeepReason, Long> versionsKept = new EnumMap<>(KeepReason.class);

        void versionRemoved()
        {
            versionsRemoved++;
        }

        void fileRemoved(FileKind kind, long bytes)
        {
            filesRemoved.merge(kind, 1L, Long::sum);
            bytesFreed += bytes;
        }

        void versionKept(KeepReason reason)
        {
            versionsKept.merge(reason, 1L, Long::sum);
        }

        CleanupReport build()
        {
            return new CleanupReport(versionsRemoved, filesRemoved, bytesFreed, versionsKept);
        }
    }
}
