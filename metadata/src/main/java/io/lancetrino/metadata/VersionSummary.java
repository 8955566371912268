package io.lancetrino.metadata;

import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.Manifest;

/**
 * Row and fragment counts of one version, from its manifest alone.
 */
public record VersionSummary(long liveRows, long deletedRows, long fragments, long dataFiles)
{
    public static VersionSummary of(Manifest manifest)
    {
        long physical = 0;
        long deleted = 0;
        long files = 0;
        for (DataFragment fragment : manifest.getFragmentsList()) {
            physical += fragment.getPhysicalRows();
            deleted += deletedRows(fragment);
            files += fragment.getFilesCount();
        }
        return new VersionSummary(physical - deleted, deleted, manifest.getFragmentsCount(), files);
    }

    public static long deletedRows(DataFragment fragment)
    {
        return fragment.hasDeletionFile() ? fragment.getDeletionFile().getNumDeletedRows() : 0;
    }
}
