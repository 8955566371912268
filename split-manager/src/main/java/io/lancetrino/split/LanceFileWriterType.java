package io.lancetrino.split;

/**
 * Which writer encodes new data files: the pure-Java writer, for the columns it writes (the Lance SDK writes files of
 * the others), or only the SDK (for comparison, and as an escape hatch).
 */
public enum LanceFileWriterType
{
    JAVA,
    SDK,
}
