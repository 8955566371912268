package io.lancetrino.metadata.maintenance;

/**
 * Why cleanup kept a version, in the order the reasons are checked (a version counts under the first that holds).
 */
public enum KeepReason
{
    /** the newest version of main or of a branch */
    LATEST("latest"),
    /** a tag points at it */
    TAGGED("tagged"),
    /** a branch was made from it, or a merge brought it over or committed it */
    BRANCH_POINT("branch_point"),
    /** a clone was made from it */
    CLONE_SOURCE("clone_source"),
    /** committed after the retention threshold */
    WITHIN_RETENTION("within_retention"),
    /**
     * on the history of an open branch or clone since it was made, where fragments went (a compaction or a deletion
     * of whole fragments), or the version before that: a merge follows rows through them
     */
    MERGE_HISTORY("merge_history");

    private final String metricName;

    KeepReason(String metricName)
    {
        this.metricName = metricName;
    }

    public String metricName()
    {
        return metricName;
    }
}
