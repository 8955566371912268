package io.lancetrino.metadata.maintenance;

/**
 * What a file of a dataset is, by the directory it lives in; {@link #ORPHAN} is any file no manifest names.
 */
public enum FileKind
{
    DATA("data"),
    DELETION("deletion"),
    TRANSACTION("transaction"),
    INDEX("index"),
    MANIFEST("manifest"),
    ORPHAN("orphan");

    private final String metricName;

    FileKind(String metricName)
    {
        this.metricName = metricName;
    }

    public String metricName()
    {
        return metricName;
    }
}
